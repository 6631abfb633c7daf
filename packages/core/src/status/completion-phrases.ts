import { isNegated } from "./negation.js";
import type { ProseSentence } from "./sentences.js";
import type { TextRange } from "./text-mask.js";

/** Finished, in the words agents use for it. */
const FINISHED = `(?:complete|completed|done|finished|implemented|checked(?: off)?)`;

/** The work as a whole, as opposed to one task: the plan, the project, every task. */
const WHOLE_WORK = `(?:project|plan|fix plan|task list|todo list|backlog|prd|roadmap)`;

/** The things a plan is made of. */
const WORK_ITEMS = `(?:tasks|items|stories|user stories|requirements|todos|to-dos|steps|work items|checkboxes)`;

/** Words of {@link WHOLE_WORK}'s alternatives, lowercase: one is in any match of it. */
const WHOLE_WORK_WORDS = ["project", "plan", "task list", "todo list", "backlog", "prd", "roadmap"];
/** `all ` or a word of {@link WHOLE_WORK}. */
const ALL_OR_WHOLE_WORK_WORDS = ["all ", ...WHOLE_WORK_WORDS];
/** The words of {@link FINISHED}'s alternatives. */
const FINISHED_WORDS = ["complete", "done", "finished", "implemented", "checked"];

/**
 * A statement pattern and the words its matches contain: for each list, one of its words (in
 * lowercase) is in every match. A sentence without them is not matched against the pattern, so
 * a short answer compiles few of these large patterns (compiling one costs milliseconds).
 */
export interface StrongCompletion {
  readonly pattern: RegExp;
  readonly words: readonly (readonly string[])[];
}

/**
 * Statements that the whole job is finished, as opposed to one step of it. A bare "done" or
 * "complete" is never one: "Done reading the file, now implementing" finishes nothing.
 */
export const STRONG_COMPLETIONS: readonly StrongCompletion[] = [
  // all tasks are complete / all the tasks in the plan have been completed
  {
    pattern: new RegExp(
      String.raw`\ball (?:of )?(?:the |my |our )?(?:\d+ )?(?:remaining |planned |open )?${WORK_ITEMS}(?: (?:in|on|from|of) (?:the |this )?${WHOLE_WORK})? (?:are|have been|were) (?:now |all |fully |successfully )*${FINISHED}\b`,
      "i",
    ),
    words: [["all "], FINISHED_WORDS],
  },
  // a headline: "All tasks complete", "Project complete.", "✅ All tasks complete!"
  {
    pattern: new RegExp(
      `^\\W*(?:the )?(?:all ${WORK_ITEMS}|(?:the )?(?:whole |entire )?${WHOLE_WORK}|all work) (?:now )?${FINISHED}[.!]*$`,
      "i",
    ),
    words: [ALL_OR_WHOLE_WORK_WORDS, FINISHED_WORDS],
  },
  // a sentence (or a clause after `:` or `;`) that opens with the work and its participle, no
  // auxiliary: "All tasks completed successfully.", "✅ All 5 stories done", "Project finished"
  {
    pattern: new RegExp(
      String.raw`(?:^\W*|(?<=[:;] ))(?:all (?:of )?(?:the |my |our )?(?:\d+ )?(?:remaining |planned |open )?${WORK_ITEMS}(?: (?:in|on|from|of) (?:the |this )?${WHOLE_WORK})?|(?:the )?(?:whole |entire )?${WHOLE_WORK}) (?:now |all |fully |successfully )*(?:completed|finished|done|implemented)(?: successfully)?\b`,
      "i",
    ),
    words: [ALL_OR_WHOLE_WORK_WORDS, ["completed", "finished", "done", "implemented"]],
  },
  // the project is complete / the entire plan has been finished; at a sentence's start the
  // article may be left out: "Project is complete and ready for review."
  {
    pattern: new RegExp(
      String.raw`(?:\bthe |^\W*)(?:whole |entire )?${WHOLE_WORK}(?: itself)? (?:is|has been) (?:now )?(?:fully |entirely |completely |100% )?${FINISHED}\b`,
      "i",
    ),
    words: [WHOLE_WORK_WORDS, FINISHED_WORDS],
  },
  // everything is done / everything's complete
  {
    pattern: new RegExp(
      String.raw`\beverything(?:'s| is| has been) (?:now )?(?:fully |all )?${FINISHED}\b`,
      "i",
    ),
    words: [["everything"], FINISHED_WORDS],
  },
  // every task is checked off
  {
    pattern:
      /\bevery (?:single )?(?:task|item|story|requirement|checkbox) (?:is|has been) (?:now )?(?:complete|completed|done|finished|checked(?: off)?)\b/i,
    words: [["every "], ["complete", "done", "finished", "checked"]],
  },
  // nothing left to do / nothing more to implement
  {
    pattern:
      /\bnothing (?:left|more|else|remaining|further) (?:to (?:do|implement|work on|be done)|remains)\b/i,
    words: [["nothing "]],
  },
  // no tasks left / no remaining tasks
  {
    pattern: new RegExp(
      String.raw`\bno (?:more |remaining |further |outstanding |open |unchecked |incomplete )?${WORK_ITEMS} (?:left|remain(?:ing)?|to do|outstanding)\b`,
      "i",
    ),
    words: [["no "]],
  },

  {
    pattern: new RegExp(
      String.raw`\bno (?:remaining|outstanding|open|unchecked|incomplete) (?:${WORK_ITEMS}|work)\b`,
      "i",
    ),
    words: [["no "]],
  },
  // I have completed all tasks / we've finished everything
  {
    pattern: new RegExp(
      String.raw`\b(?:I|we)(?:'ve| have) (?:now )?(?:completed|finished|implemented|done) (?:everything|all (?:of )?(?:the |my )?(?:${WORK_ITEMS}|work)(?: (?:in|on|from|of) (?:the |this )?${WHOLE_WORK})?)(?=[\s.!,;:]|$)`,
      "i",
    ),
    words: [
      ["'ve ", " have "],
      ["completed", "finished", "implemented", "done"],
    ],
  },
];

/** The patterns of {@link STRONG_COMPLETIONS}. */
export const STRONG_COMPLETION_PATTERNS: readonly RegExp[] = Object.freeze(
  STRONG_COMPLETIONS.map((entry) => entry.pattern),
);

/** Whether `lowercase` has a word of each of `words`' lists. */
export function hasWords(lowercase: string, words: readonly (readonly string[])[]): boolean {
  return words.every((list) => list.some((word) => lowercase.includes(word)));
}

/** A phrase as a pattern: case-insensitive, any spacing, whole words at its ends. */
function phrasePattern(phrase: string): RegExp | null {
  const words = phrase.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const body = words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+");
  const start = /^\w/.test(words[0] ?? "") ? "\\b" : "";
  const end = /\w$/.test(words[words.length - 1] ?? "") ? "\\b" : "";
  return new RegExp(`${start}${body}${end}`, "gi");
}

/** A pattern made global, for `matchAll`. */
function globalPattern(pattern: RegExp): RegExp {
  return pattern.global ? pattern : new RegExp(pattern.source, `${pattern.flags}g`);
}

/** {@link STRONG_COMPLETIONS} with global patterns, made once (`matchAll` resets each). */
const GLOBAL_STRONG_COMPLETIONS: readonly StrongCompletion[] = STRONG_COMPLETIONS.map((entry) => ({
  pattern: globalPattern(entry.pattern),
  words: entry.words,
}));

/** Whether any character of a range is marked. */
function overlapsCounted(counted: Uint8Array, range: TextRange): boolean {
  for (let index = range.start; index < range.end; index += 1) {
    if (counted[index] === 1) return true;
  }
  return false;
}

/**
 * Finds the strong completion statements in the prose: the built-in
 * {@link STRONG_COMPLETION_PATTERNS} and the caller's extra phrases. A match does not count in a
 * question, or when {@link isNegated} says it is negated, conditional, a directive or taken
 * back. The same wording found twice counts once, and so do two phrases that overlap in one
 * sentence.
 *
 * @param sentences - the prose sentences of the answer.
 * @param extraPhrases - more phrases that count, matched case-insensitively as whole words.
 * @returns the phrases found, as written (markup removed), in order.
 */
export function findCompletionPhrases(
  sentences: readonly ProseSentence[],
  extraPhrases: readonly string[] = [],
): string[] {
  const patterns: readonly StrongCompletion[] = [
    ...GLOBAL_STRONG_COMPLETIONS,
    ...extraPhrases.flatMap((phrase) => {
      const pattern = phrasePattern(phrase);
      return pattern === null ? [] : [{ pattern, words: [] }];
    }),
  ];
  const found = new Map<string, string>();
  for (const sentence of sentences) {
    if (/\?["')\]]*$/.test(sentence.text)) continue;
    // The characters of the counted matches: an overlap is seen in the match's own length.
    const counted = new Uint8Array(sentence.text.length);
    const lowercase = sentence.text.toLowerCase();
    for (const { pattern, words } of patterns) {
      if (!hasWords(lowercase, words)) continue;
      for (const match of sentence.text.matchAll(pattern)) {
        const range = { start: match.index, end: match.index + match[0].length };
        if (overlapsCounted(counted, range)) continue;
        if (isNegated(sentence.text, range.start, range.end)) continue;
        counted.fill(1, range.start, range.end);
        const phrase = match[0].replace(/^\W+|[.!]+$/g, "");
        const key = phrase.toLowerCase();
        if (!found.has(key)) found.set(key, phrase);
      }
    }
  }
  return [...found.values()];
}

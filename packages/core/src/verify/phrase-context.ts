/** Words that negate a phrase when among the three words before it in its clause. */
// biome-ignore format: one word list, kept compact
const negators: ReadonlySet<string> = new Set([
  "not", "no", "never", "nothing", "none", "nobody", "neither", "nor", "without", "hardly",
  "isn't", "isnt", "aren't", "arent", "wasn't", "wasnt", "weren't", "werent", "don't", "dont",
  "doesn't", "doesnt", "didn't", "didnt", "won't", "wont", "hasn't", "hasnt", "haven't",
  "havent", "can't", "cant", "cannot", "couldn't", "couldnt", "shouldn't", "shouldnt",
  "wouldn't", "wouldnt",
]);

/** Words that make what follows them in the clause a condition, not a statement. */
// biome-ignore format: one word list, kept compact
const conditionals: ReadonlySet<string> = new Set([
  "if", "unless", "whether", "suppose", "supposing", "assuming", "once", "until",
]);

/** Words that make an issue or a resolution a guess or a prediction, not a report. */
// biome-ignore format: one word list, kept compact
const hedges: ReadonlySet<string> = new Set([
  "might", "may", "could", "would", "should", "will", "maybe", "perhaps",
]);

/** Auxiliaries that open a yes/no question ("Is it broken?", "Does it work now?"). */
// biome-ignore format: one word list, kept compact
const auxiliaries: ReadonlySet<string> = new Set([
  "is", "are", "was", "were", "do", "does", "did", "has", "have", "had", "can", "could",
  "would", "will", "should", "shall", "may", "might", "isn't", "aren't", "doesn't", "didn't",
]);

/** Auxiliaries that, followed by "you", make a request ("Can you fix this?"), not a question. */
const requestAuxiliaries: ReadonlySet<string> = new Set(["can", "could", "would", "will"]);

/** Where a phrase was found. */
export interface PhraseContext {
  /** The sentence, lowercase, `'` for every apostrophe, quoted parts blanked. */
  readonly sentence: string;
  /** Index of the phrase in `sentence`. */
  readonly start: number;
}

function words(text: string): string[] {
  return text.split(/[^\p{L}\p{N}']+/u).filter((word) => word !== "" && word !== "'");
}

/** The words of the phrase's clause before it: a clause ends at `,;:()—–` and "but". */
function clauseWordsBefore({ sentence, start }: PhraseContext): string[] {
  const before = sentence.slice(0, start);
  const clauses = before.split(/[,;:()\u2013\u2014]|\s-\s|\bbut\b|\bhowever\b/);
  return words(clauses.at(-1) ?? "");
}

/** Whether one of the three words before the phrase, in its clause, is a negation. */
export function isNegated(context: PhraseContext): boolean {
  return clauseWordsBefore(context)
    .slice(-3)
    .some((word) => negators.has(word));
}

/**
 * Whether the phrase is a condition: a conditional word ("if", "unless", "whether", "once",
 * "until", "in case", …) comes before it in its clause, or, with `wholeSentence`, anywhere
 * before it in the sentence ("If the build breaks, fix it" asks nothing now).
 */
export function isConditional(context: PhraseContext, wholeSentence: boolean): boolean {
  const before = wholeSentence
    ? words(context.sentence.slice(0, context.start))
    : clauseWordsBefore(context);
  return before.some(
    (word, index) => conditionals.has(word) || (word === "case" && before[index - 1] === "in"),
  );
}

/** Whether one of the three words before the phrase, in its clause, is a hedge ("might", …). */
export function isHedged(context: PhraseContext): boolean {
  return clauseWordsBefore(context)
    .slice(-3)
    .some((word) => hedges.has(word) || word.endsWith("'ll"));
}

/**
 * Whether the sentence is a yes/no question: it ends with `?` and opens with an auxiliary
 * ("Is it still broken?", "Does it work now?"), unless it is a request ("Can you fix this?",
 * "Could you please change it?").
 */
export function isYesNoQuestion(sentence: string): boolean {
  if (!sentence.trimEnd().endsWith("?")) return false;
  const [first = "", second = ""] = words(sentence);
  if (requestAuxiliaries.has(first) && (second === "you" || second === "u")) return false;
  return auxiliaries.has(first);
}

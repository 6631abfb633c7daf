/** Words that deny what follows them in the same clause. */
const NEGATING_WORDS = new Set([
  "not",
  "no",
  "never",
  "nothing",
  "none",
  "nobody",
  "neither",
  "nor",
  "cannot",
  "without",
  "hardly",
  "barely",
]);

/** Words that make what follows a condition, not a statement: "once all tasks are complete". */
const CONDITIONAL_WORDS = new Set([
  "if",
  "when",
  "whenever",
  "once",
  "until",
  "till",
  "unless",
  "after",
  "before",
  "whether",
  "assuming",
  "suppose",
]);

/** Words that make what follows a thing to check or do, not a fact: "verify that …". */
const DIRECTIVE_WORDS = new Set([
  "verify",
  "check",
  "ensure",
  "confirm",
  "sure",
  "determine",
  "assert",
  "output",
  "print",
  "say",
  "write",
  "claim",
  "pretend",
]);

/** Where a clause ends, looking back from a match: punctuation or a joining word. */
const CLAUSE_BOUNDARY = /[,;:()\u2013\u2014]|\s-\s|\b(?:but|and|so|although|though|however)\b/gi;

/**
 * What, right after a match, takes the statement back ("complete except for the docs") or
 * narrows it to less than the whole job ("no remaining tasks for this story").
 */
const RETRACTING_FOLLOWER =
  /^[\s,;:\u2013\u2014-]*(?:except|apart from|other than|but|save for|besides|aside from|once|when|after|if|unless|until|as soon as|pending|not|yet to|soon|later|eventually|(?:for|in|within|on) (?:this|the current|that) (?:story|task|step|feature|module|file|section|phase|milestone|sprint|iteration|ticket|issue|branch|pr|pull request)\b)\b/i;

/**
 * How far back, in characters, the clause before a match is read. A qualifying word further
 * back than this is too far to qualify the match; the bound keeps a long sentence with many
 * matches linear (each match reads at most this much, not the whole sentence before it).
 */
const CLAUSE_WINDOW = 160;

/** The clause a match sits in, from its last boundary up to the match. */
function clauseBefore(sentence: string, matchStart: number): string {
  let windowStart = Math.max(0, matchStart - CLAUSE_WINDOW);
  // Start at a word's start, so that a cut word does not read as another word.
  while (
    windowStart > 0 &&
    windowStart < matchStart &&
    /\w/.test(sentence.charAt(windowStart - 1))
  ) {
    windowStart += 1;
  }
  const before = sentence.slice(windowStart, matchStart);
  let clauseStart = 0;
  for (const boundary of before.matchAll(CLAUSE_BOUNDARY)) {
    clauseStart = boundary.index + boundary[0].length;
  }
  return before.slice(clauseStart);
}

/** Whether one word negates, conditions or directs what follows it. */
function isQualifyingWord(word: string): boolean {
  return (
    word.endsWith("n't") ||
    NEGATING_WORDS.has(word) ||
    CONDITIONAL_WORDS.has(word) ||
    DIRECTIVE_WORDS.has(word)
  );
}

/**
 * Whether the words before a phrase, in its own clause, negate it ("not all tasks are
 * complete", "I can't say everything is done"), make it a condition ("once all tasks are
 * complete") or a directive ("verify that all tasks are complete", "output DONE when …").
 * Only the match's own clause is read, and at most its last 160 characters, so "No
 * regressions, and all tasks are complete" is a statement.
 *
 * @param sentence - the normalised sentence the phrase was found in.
 * @param matchStart - offset of the phrase in the sentence.
 * @returns `true` when the phrase is not stated as a fact.
 */
export function isQualifiedBefore(sentence: string, matchStart: number): boolean {
  const words = clauseBefore(sentence, matchStart)
    .toLowerCase()
    .replace(/\u2019/g, "'")
    .match(/[a-z]+(?:'[a-z]+)?/g);
  return words?.some(isQualifyingWord) ?? false;
}

/**
 * Whether the words right after a phrase take it back: "the project is complete except for the
 * docs", "… complete, but …", "… complete once the tests pass", or narrow it to one part of
 * the job: "no remaining tasks for this story".
 *
 * @param sentence - the normalised sentence the phrase was found in.
 * @param matchEnd - offset just after the phrase in the sentence.
 * @returns `true` when the phrase is taken back.
 */
export function isTakenBack(sentence: string, matchEnd: number): boolean {
  return RETRACTING_FOLLOWER.test(sentence.slice(matchEnd, matchEnd + CLAUSE_WINDOW));
}

/**
 * Whether a phrase found in a sentence is not a plain statement of fact: qualified before it
 * ({@link isQualifiedBefore}) or taken back after it ({@link isTakenBack}). Words inside the
 * match are not read: a phrase that is negative by itself ("nothing left to do") is judged by
 * what surrounds it.
 *
 * @param sentence - the normalised sentence the phrase was found in.
 * @param matchStart - offset of the phrase in the sentence.
 * @param matchEnd - offset just after the phrase.
 * @returns `true` when the phrase must not count.
 */
export function isNegated(sentence: string, matchStart: number, matchEnd: number): boolean {
  return isQualifiedBefore(sentence, matchStart) || isTakenBack(sentence, matchEnd);
}

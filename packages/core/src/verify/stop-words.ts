/**
 * English function words: articles, prepositions, conjunctions, pronouns, auxiliaries and
 * modals. They carry no content of their own, so matching ignores them. Negations (`not`,
 * `no`, `never`, `without`) are deliberately absent: "User can not log in" and "User can log
 * in" must not look alike.
 */
// biome-ignore format: one word list, kept compact
export const STOP_WORDS: ReadonlySet<string> = new Set([
  "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at",
  "be", "been", "before", "being", "both", "but", "by", "can", "could", "did", "do", "does",
  "doing", "done", "each", "eg", "either", "etc", "every", "for", "from", "had", "has", "have",
  "having", "he", "her", "here", "his", "how", "i", "ie", "if", "in", "into", "is", "it", "its",
  "itself", "just", "may", "me", "might", "more", "most", "must", "my", "of", "on", "once",
  "onto", "or", "other", "our", "ours", "out", "over", "own", "per", "same", "shall", "she",
  "should", "so", "some", "such", "than", "that", "the", "their", "them", "then", "there",
  "these", "they", "this", "those", "through", "to", "too", "under", "up", "upon", "us", "via",
  "was", "we", "were", "what", "when", "where", "whether", "which", "while", "who", "whom",
  "whose", "why", "will", "with", "within", "would", "you", "your",
]);

/**
 * Words that say how work is done or how a requirement is phrased, not what it is about:
 * task verbs ("Implement …", "Add support for …", "Write a …") and requirement phrasing
 * ("… uses bcrypt", "… covers formatting", "works correctly"). Matching ignores them, in any
 * inflection (the list is compared after stemming too, so "implementing" and
 * "implementation" go with "implement").
 */
// biome-ignore format: one word list, kept compact
export const FILLER_WORDS: readonly string[] = Object.freeze([
  "ability", "able", "add", "allow", "capability", "correctly", "cover", "create", "develop",
  "enable", "ensure", "functionality", "fully", "get", "implement", "include", "introduce",
  "let", "make", "need", "properly", "provide", "set", "setup", "successfully", "support",
  "use", "used", "uses", "using", "write",
]);

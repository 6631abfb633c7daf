/** Two-word phrasal forms written as one word, so that "log in" meets "login". */
const compounds: ReadonlyMap<string, string> = new Map([
  ["back up", "backup"],
  ["check out", "checkout"],
  ["log in", "login"],
  ["log out", "logout"],
  ["look up", "lookup"],
  ["roll back", "rollback"],
  ["set up", "setup"],
  ["sign in", "signin"],
  ["sign out", "signout"],
  ["sign up", "signup"],
]);

const compoundPattern = new RegExp(`\\b(?:${[...compounds.keys()].join("|")})\\b`, "g");

/**
 * The generic-actor preamble of a user story or requirement ("User can …", "Users should …",
 * "As a user, I can …"): it says who, not what, and a task never repeats it. Only the generic
 * "user" is dropped; "Admin can …" keeps its actor.
 */
const preamblePattern =
  /^(?:as (?:an? |the )?(?:end )?users? i (?:can |should |must |want to |would like to |am able to )?|(?:the |an? |each |every |any |all )?(?:end )?users? (?:can|should|must|will|may|shall|(?:is|are) able to)\b)/;

/**
 * Normalises a sentence for matching: Unicode compatibility decomposition (NFKD) with
 * combining marks removed (`é` → `e`), lowercase, `n't` spelled out as ` not` (so a negation
 * survives as a word), apostrophes removed (`user's` → `users`), a single letter joined to
 * what its hyphen links (`e-mail` → `email`), every other run of non-letters and non-digits
 * turned into one space, the phrasal compounds joined (`log in` → `login`, `sign up` →
 * `signup`, `set up` → `setup`, …) and the generic-actor preamble removed ("User can …",
 * "As a user, I can …").
 *
 * @param text - any text.
 * @returns the normalised text: lowercase words separated by single spaces.
 */
export function normalizeText(text: string): string {
  const words = text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[\u2018\u2019`]/g, "'")
    .replace(/\bcan'?t\b/g, "can not")
    .replace(/\bwon't\b/g, "will not")
    .replace(/n't\b/g, " not")
    .replace(/'/g, "")
    .replace(/\b(\p{L})-(?=\p{L})/gu, "$1")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
  return words
    .replace(compoundPattern, (phrase) => compounds.get(phrase) ?? phrase)
    .replace(preamblePattern, "")
    .trim();
}

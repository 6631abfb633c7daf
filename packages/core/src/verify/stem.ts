const vowel = /[aeiouy]/;

/** A stem is kept only if it is at least `minimum` letters long and has a vowel. */
function isAcceptable(stem: string, minimum = 3): boolean {
  return stem.length >= minimum && vowel.test(stem);
}

/** Step 1: plurals and the third person (`hashes` → `hash`, `utilities` → `utility`). */
function stripPlural(word: string): string {
  if (word.endsWith("ies") && isAcceptable(`${word.slice(0, -3)}y`)) {
    return `${word.slice(0, -3)}y`;
  }
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (/(?:s|x|z|ch|sh)es$/.test(word) && isAcceptable(word.slice(0, -2))) {
    return word.slice(0, -2);
  }
  if (word.endsWith("s") && !/(?:ss|us|is)$/.test(word) && isAcceptable(word.slice(0, -1))) {
    return word.slice(0, -1);
  }
  return word;
}

/**
 * Repairs a stem after `-ing`/`-ed` is removed, as Porter does: restore the `e` of
 * `-ate`/`-ize`/`-ise`/`-ble` (`updat` → `update`) and undouble a final consonant
 * (`formatt` → `format`, but `install` and `pass` keep theirs).
 */
function repairStem(stem: string): string {
  if (/(?:at|iz|is|bl)$/.test(stem)) return `${stem}e`;
  const last = stem.at(-1) ?? "";
  if (stem.length >= 4 && last === stem.at(-2) && !/[aeiouylsz]/.test(last)) {
    return stem.slice(0, -1);
  }
  return stem;
}

/** Step 2: `-ing` and `-ed` (`hashing` → `hash`, `authenticated` → `authenticate`). */
function stripVerbEnding(word: string): string {
  for (const suffix of ["ing", "ed"]) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    if (isAcceptable(stem)) return repairStem(stem);
  }
  return word;
}

/** Derivational suffixes, longest first, with the shortest stem each may leave. */
const derivationalSuffixes: readonly (readonly [suffix: string, minimumStem: number])[] = [
  ["isation", 3],
  ["ization", 3],
  ["ation", 3],
  ["ator", 3],
  ["ment", 4],
  ["ness", 3],
  ["ance", 4],
  ["ence", 4],
  ["able", 3],
  ["ible", 3],
  ["tion", 3], // keeps the t: `connection` → `connect`
  ["sion", 3], // keeps the s: `session` → `sess`
  ["ity", 3],
  ["ise", 3],
  ["ize", 3],
  ["ate", 3],
  ["ive", 3],
];

/** Step 3, once: a derivational suffix (`authentication` → `authentic`, `localise` → `local`). */
function stripDerivation(word: string): string {
  for (const [suffix, minimumStem] of derivationalSuffixes) {
    if (!word.endsWith(suffix)) continue;
    // `-tion`/`-sion` drop only the `ion`.
    const removed = suffix === "tion" || suffix === "sion" ? 3 : suffix.length;
    const stem = word.slice(0, -removed);
    if (isAcceptable(stem, minimumStem)) return stem;
  }
  return word;
}

/** Step 4: a final silent `e` (`cache` → `cach`, so it meets `caching` → `cach`). */
function stripFinalE(word: string): string {
  return word.endsWith("e") && isAcceptable(word.slice(0, -1)) ? word.slice(0, -1) : word;
}

/**
 * Light English suffix stemmer (a small Porter-style stemmer): maps the inflections and
 * common derivations of a word to one stem, so that "hash", "hashes", "hashing" and "hashed"
 * all become `hash`, "authenticate", "authentication" and "authenticating" all become
 * `authentic`, and "localisation", "localization" and "localized" all become `local`.
 *
 * Steps, each applied at most once except step 3 (twice, so `documentation` → `document` →
 * `docu` meets `documented` → `docu`): 1. plurals, 2. `-ing`/`-ed`, 3. derivational
 * suffixes, 4. a final `e`. A suffix is removed only if what is left is at least three
 * letters long and has a vowel (`string` stays `string`). Stems need not be words; they only
 * need to be the same for words of one family. Words containing digits are returned as they
 * are.
 *
 * @param word - one lowercase word.
 * @returns its stem.
 * @example
 * ```ts
 * stem("hashing"); // "hash"
 * stem("authentication"); // "authentic"
 * ```
 */
export function stem(word: string): string {
  if (/\d/.test(word)) return word;
  const inflectionFree = stripVerbEnding(stripPlural(word));
  return stripFinalE(stripDerivation(stripDerivation(inflectionFree)));
}

import { distance } from "fastest-levenshtein";

/**
 * The most typing errors two different stems may differ by and still match (stems of 8 letters
 * or more); shorter stems are allowed fewer. Candidate search relies on it as a bound.
 */
export const MAX_TYPO_EDITS = 2;

/** The shortest stem allowed a typing error: shorter stems match only when equal. */
export const MIN_TYPO_LENGTH = 5;

/**
 * How many typing errors two stems may differ by and still match, by the longer stem's
 * length: none up to 4 letters (`test` ≠ `text`, `jwt` ≠ `jws`), 1 up to 7, 2 from 8.
 */
function allowedEdits(length: number): number {
  if (length < MIN_TYPO_LENGTH) return 0;
  return length <= 7 ? 1 : MAX_TYPO_EDITS;
}

/** Whether `a` becomes `b` by swapping two adjacent letters (`bcrpyt` → `bcrypt`). */
function isTransposition(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let first = -1;
  for (let index = 0; index < a.length; index += 1) {
    if (a[index] === b[index]) continue;
    if (first !== -1)
      return (
        index === first + 1 &&
        a[first] === b[index] &&
        a[index] === b[first] &&
        a.slice(index + 1) === b.slice(index + 1)
      );
    first = index;
  }
  return false;
}

/**
 * Similarity of two stems, in [0, 1], tolerant of typing errors: 1 when equal; otherwise
 * `1 − edits / longer length` when the Levenshtein distance (an adjacent swap counting as one
 * edit) is within the allowance for the longer stem's length (0 up to 4 letters, 1 up to 7,
 * 2 from 8), both start with the same letter and neither contains a digit; else 0.
 *
 * @param a - a stem.
 * @param b - another stem.
 * @returns the stems' similarity; symmetric.
 * @example
 * ```ts
 * wordSimilarity("pasword", "password"); // 0.875
 * wordSimilarity("test", "text"); // 0
 * ```
 */
export function wordSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  const allowed = allowedEdits(longer);
  if (allowed === 0 || a[0] !== b[0] || /\d/.test(a) || /\d/.test(b)) return 0;
  if (Math.abs(a.length - b.length) > allowed) return 0;
  const edits = isTransposition(a, b) ? 1 : distance(a, b);
  return edits <= allowed ? 1 - edits / longer : 0;
}

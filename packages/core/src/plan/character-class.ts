/** A character around an emphasis marker run: whitespace, punctuation or anything else. */
export type CharacterClass = "whitespace" | "punctuation" | "other";

const unicodeWhitespace = /\s/u;
const unicodePunctuation = /\p{P}|\p{S}/u;

/** The class of every ASCII code, computed once. */
const asciiClasses: readonly CharacterClass[] = Array.from({ length: 128 }, (_, code) =>
  classifyUncached(code),
);

function classifyUncached(code: number): CharacterClass {
  const character = String.fromCharCode(code);
  if (code === 9 || code === 10 || code === 13 || code === 32) return "whitespace";
  if (unicodeWhitespace.test(character)) return "whitespace";
  return unicodePunctuation.test(character) ? "punctuation" : "other";
}

/**
 * Classifies a UTF-16 code unit the way micromark does for emphasis (its
 * `classifyCharacter`): line endings, spaces, tabs and Unicode whitespace are whitespace,
 * Unicode punctuation and symbols are punctuation. Like micromark, this looks at one code
 * unit, so each half of a surrogate pair is "other".
 *
 * @param code - a UTF-16 code unit, or `null` for the start or end of the text (whitespace).
 * @returns the character's class.
 */
export function classifyCharacter(code: number | null): CharacterClass {
  if (code === null) return "whitespace";
  return asciiClasses[code] ?? classifyUncached(code);
}

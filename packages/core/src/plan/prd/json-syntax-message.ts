/** A note about trailing commas when the character at `offset` closes an object or array. */
function trailingCommaHint(text: string, offset: number): string {
  const character = text.charAt(offset);
  return character === "}" || character === "]" ? " (JSON allows no trailing comma)" : "";
}

/** Quotes up to 20 characters of `text` from `offset`, for messages. */
function excerpt(text: string, offset: number, length: number): string {
  const characters = text.slice(offset, offset + Math.max(1, Math.min(length, 20)));
  return JSON.stringify(characters);
}

type SyntaxMessage = (text: string, offset: number, length: number) => string;

/** Messages for jsonc-parser's parse error codes, keyed by `printParseErrorCode` names. */
const syntaxMessages: Readonly<Record<string, SyntaxMessage>> = {
  InvalidSymbol: (text, offset, length) =>
    `unexpected ${excerpt(text, offset, length)}; expected a JSON value`,
  InvalidNumberFormat: () => "invalid number",
  PropertyNameExpected: (text, offset) =>
    `expected a property name in double quotes${trailingCommaHint(text, offset)}`,
  ValueExpected: (text, offset) =>
    offset >= text.length
      ? "unexpected end of the document; expected a value"
      : `expected a value${trailingCommaHint(text, offset)}`,
  ColonExpected: () => "expected `:` after the property name",
  CommaExpected: () => "expected `,` before the next item",
  CloseBraceExpected: () => "expected `}` to close the object",
  CloseBracketExpected: () => "expected `]` to close the array",
  EndOfFileExpected: () => "unexpected content after the end of the JSON document",
  InvalidCommentToken: () => "comments are not allowed in JSON",
  UnexpectedEndOfComment: () => "comments are not allowed in JSON",
  UnexpectedEndOfString: () => "unterminated string",
  UnexpectedEndOfNumber: () => "incomplete number",
  InvalidUnicode: () => "invalid `\\u` escape: expected 4 hexadecimal digits",
  InvalidEscapeCharacter: () => "invalid escape sequence in a string",
  InvalidCharacter: () =>
    "unescaped control character in a string (write a newline as \\n, a tab as \\t)",
};

/**
 * A readable message for a jsonc-parser parse error, given its code name (from
 * `printParseErrorCode`) and the offending characters.
 */
export function jsonSyntaxMessage(
  codeName: string,
  text: string,
  offset: number,
  length: number,
): string {
  const message = syntaxMessages[codeName];
  return message === undefined ? `invalid JSON (${codeName})` : message(text, offset, length);
}

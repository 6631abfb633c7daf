import { StateStoreError } from "@loop/core";

/** A UTF-16 surrogate with no partner: not Unicode, so not encodable as UTF-8. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A document's text as the bytes stored in `bytea`: its UTF-8 encoding, so every character —
 * NUL and control characters included, which a PostgreSQL `text` column refuses — comes back
 * byte for byte.
 *
 * @throws {StateStoreError} for a text that is not a string, or holds a lone surrogate (not
 *   Unicode, so it cannot be stored unchanged; `JSON.stringify` never produces one).
 */
export function encodeDocumentText(text: unknown, what: string): Buffer {
  if (typeof text !== "string") {
    throw new StateStoreError({
      message: `A state document must be text (a string), got ${text === null ? "null" : typeof text}: serialise it first (${what})`,
    });
  }
  const match = loneSurrogate.exec(text);
  if (match !== null) {
    const code = text.charCodeAt(match.index).toString(16).toUpperCase();
    throw new StateStoreError({
      message: `Could not ${what}: the text has a lone surrogate (U+${code}) at index ${match.index}, which is not Unicode and cannot be stored unchanged; JSON.stringify writes such a character as an escape`,
    });
  }
  return Buffer.from(text, "utf8");
}

/** The text of stored bytes (`null` stays `null`). */
export function decodeDocumentText(bytes: Buffer | null | undefined): string | null {
  if (bytes === null || bytes === undefined) return null;
  return bytes.toString("utf8");
}

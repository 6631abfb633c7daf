/** NUL, and UTF-16 surrogates without their partner: what PostgreSQL's `jsonb` refuses. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what jsonb refuses
const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `value` as JSON text that a `jsonb` column accepts: every string's NUL characters and lone
 * surrogates (which `jsonb` refuses, and which only an agent's raw output could bring into an
 * event) become U+FFFD, the replacement character. Everything else is kept as it is.
 */
export function storableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === "string" ? item.replace(unstorable, "\uFFFD") : item,
  );
}

/** Words YAML 1.2 reads as something other than text when they are written bare. */
const RESERVED_WORDS = new Set(["true", "false", "null", "~", "yes", "no", "on", "off"]);

/** Whether `text` can be written without quotes, in block and flow context alike, and read back as the same string. */
function isPlainSafe(text: string): boolean {
  if (!/^[A-Za-z0-9_./~][A-Za-z0-9_./~ -]*$/.test(text) || text.endsWith(" ")) return false;
  if (RESERVED_WORDS.has(text.toLowerCase())) return false;
  return !/^[-+]?(?:\.?\d|\.inf$|\.nan$)/i.test(text);
}

/**
 * A JSON value written as one line of YAML: numbers, booleans and `null` bare, strings bare when
 * that reads back as the same string (`plan.md`, `Nice to Have`) and double-quoted otherwise,
 * lists in flow style (`[Optional, Future]`), mappings as `{}` when empty.
 *
 * @param value - a JSON-compatible value (a config default).
 * @returns the YAML text, which parses back to `value`.
 * @throws {TypeError} for a value JSON cannot hold (a function, `undefined`) or a non-empty mapping.
 */
export function formatYamlValue(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "string") return isPlainSafe(value) ? value : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(formatYamlValue).join(", ")}]`;
  if (typeof value === "object" && Object.keys(value).length === 0) return "{}";
  throw new TypeError(`formatYamlValue: cannot write ${JSON.stringify(value)} on one line`);
}

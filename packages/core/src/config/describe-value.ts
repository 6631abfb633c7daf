/**
 * Describes a value found in a config for an error message, as the user wrote it: strings
 * quoted (`"two"`), numbers and booleans as written, `null`, and lists or mappings by kind
 * (their contents could be long).
 *
 * @param value - any value a YAML document or an embedding program can produce.
 * @returns a short description, for example `"two"`, `1.5`, `null`, `a list`.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return String(value);
  }
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return `a ${typeof value}`;
}

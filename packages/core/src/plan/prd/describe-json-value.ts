/**
 * Describes a JSON value for an error message: `the string "yes"`, `the number 1.5`,
 * `null`, `an array`, `an object`. Long strings are shortened.
 */
export function describeJsonValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case "number":
      return `the number ${value}`;
    case "boolean":
      return `${value}`;
    case "object":
      return "an object";
    default:
      return "nothing";
  }
}

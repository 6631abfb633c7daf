/** The options every suite needs, and the type each must have. */
const requiredOptions = [
  ["name", "string"],
  ["create", "function"],
  ["inspect", "function"],
  ["corrupt", "function"],
] as const;

/** The options a suite may leave out, and the type each must have when given. */
const optionalOptions = [
  ["plantStaleLock", "function"],
  ["plantLiveLock", "function"],
  ["destroy", "function"],
] as const;

/**
 * Checks the options of `testStateStore` before any test is registered, so a mistake fails
 * at once with the option's name rather than as fifty failing tests.
 *
 * @param options - what the caller passed.
 * @throws {TypeError} "Missing required option `x`", or a wrongly typed option.
 */
export function checkSuiteOptions(options: unknown): void {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`testStateStore expects an options object, got ${describeType(options)}`);
  }
  const record = options as Record<string, unknown>;
  for (const [name, type] of requiredOptions) {
    if (record[name] === undefined) throw new TypeError(`Missing required option \`${name}\``);
    checkType(record, name, type);
  }
  for (const [name, type] of optionalOptions) {
    if (record[name] !== undefined) checkType(record, name, type);
  }
  if (record.name === "") throw new TypeError("Option `name` must not be empty");
}

function checkType(record: Record<string, unknown>, name: string, type: string): void {
  if (typeof record[name] !== type) {
    throw new TypeError(`Option \`${name}\` must be a ${type}, got ${describeType(record[name])}`);
  }
}

function describeType(value: unknown): string {
  return value === null ? "null" : typeof value;
}

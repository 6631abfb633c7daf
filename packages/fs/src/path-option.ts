/**
 * Reads the required `path` option of a factory, before the factory does anything else.
 *
 * @param options - the options the factory was given.
 * @param factory - the factory's name, for the message (`createJsonlLogger`).
 * @returns the path.
 * @throws {TypeError} "createJsonlLogger: Missing required option `path`" when it is absent,
 *   or a message saying what was given when it is not a non-empty string.
 */
export function requirePathOption(
  options: { readonly path?: unknown } | null | undefined,
  factory: string,
): string {
  const path = options?.path;
  if (path === undefined || path === null) {
    throw new TypeError(`${factory}: Missing required option \`path\``);
  }
  if (typeof path !== "string" || path === "") {
    throw new TypeError(
      `${factory}: option \`path\` must be a non-empty string, got ${JSON.stringify(path)}`,
    );
  }
  return path;
}

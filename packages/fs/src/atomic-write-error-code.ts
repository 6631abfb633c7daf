/**
 * The `code` of a Node.js system error (`ENOENT`, `EACCES`, `EEXIST`…), or `undefined` when
 * `error` carries none.
 *
 * @param error - anything caught.
 * @returns the error's string `code`, if it has one.
 */
export function errorCodeOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

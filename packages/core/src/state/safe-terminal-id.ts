import { fnv1aHash } from "../status/fnv-hash.js";
import { StateStoreError } from "./state-errors.js";

/** The longest terminal id, in characters. */
export const MAX_TERMINAL_ID_LENGTH = 64;

/** Hex digits of the hash suffix that keeps sanitized ids distinct. */
const hashLength = 12;

const safePattern = /^[A-Za-z0-9._-]+$/;
const safeCharacter = /^[A-Za-z0-9._-]$/;

/**
 * Whether `id` is a safe terminal id: 1 to 64 characters of `[A-Za-z0-9._-]`, not starting
 * with `.` (so never `.` or `..`). Such an id is a single path segment on every platform, so a
 * store can use it as a directory name; stores reject every other id with a `StateStoreError`.
 *
 * @param id - any value.
 * @returns whether it is a safe terminal id.
 */
export function isSafeTerminalId(id: unknown): id is string {
  return typeof id === "string" && isSafeText(id);
}

/**
 * Throws a `StateStoreError` unless `id` is a safe terminal id ({@link isSafeTerminalId}).
 * Every `StateStore` calls it before touching its backend, so a hostile id never reaches a path.
 *
 * @param id - the terminal id a store method was given.
 */
export function assertSafeTerminalId(id: unknown): asserts id is string {
  if (isSafeTerminalId(id)) return;
  const text = String(id);
  const shown = text.length > 80 ? `${text.slice(0, 80)}…` : text;
  throw new StateStoreError({
    message: `Unsafe terminal id ${JSON.stringify(shown)}: a terminal id is 1 to ${MAX_TERMINAL_ID_LENGTH} characters of A-Z, a-z, 0-9, ".", "_" and "-", and does not start with "."`,
  });
}

function isSafeText(id: string): boolean {
  return id.length <= MAX_TERMINAL_ID_LENGTH && safePattern.test(id) && !id.startsWith(".");
}

/**
 * Turns any text into a safe terminal id ({@link isSafeTerminalId}). A safe id is returned as
 * it is. Otherwise every character outside `[A-Za-z0-9._-]` (each Unicode character counts as
 * one) and every leading `.` becomes `_`, the text is cut to leave room, and `-` and 12 hex
 * digits of a hash of the whole original text are appended, so different texts stay different
 * ids and the readable start is kept: `tmux-%3` → `tmux-_3-<hash>`, `../../etc` →
 * `___.._etc-<hash>`. An empty text gives `_-<hash>`.
 *
 * @param raw - the text, for example a terminal's session variable or a `--terminal-id` value.
 * @returns a safe terminal id, at most 64 characters.
 */
export function sanitizeTerminalId(raw: string): string {
  if (isSafeText(raw)) return raw;
  const replaced = Array.from(raw, (character) =>
    safeCharacter.test(character) ? character : "_",
  ).join("");
  const readable = replaced.replace(/^\.+/, (dots) => "_".repeat(dots.length));
  const room = MAX_TERMINAL_ID_LENGTH - hashLength - 1;
  const prefix = readable === "" ? "_" : readable.slice(0, room);
  return `${prefix}-${fnv1aHash(raw).slice(0, hashLength)}`;
}

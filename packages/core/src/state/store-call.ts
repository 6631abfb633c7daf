import { isSafeTerminalId } from "./safe-terminal-id.js";
import { StateLockedError, StateStoreError } from "./state-errors.js";

/**
 * Runs one call to a state store: `StateStoreError` and `StateLockedError` pass through as they
 * are, and any other failure is wrapped in a `StateStoreError` saying what was being done.
 *
 * @param action - what the call does, for the message: `read loop_state of terminal "a"`.
 * @param call - the call.
 */
export async function storeCall<Result>(
  action: string,
  call: () => Promise<Result>,
): Promise<Result> {
  try {
    return await call();
  } catch (error) {
    if (StateStoreError.isInstance(error) || StateLockedError.isInstance(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new StateStoreError({ message: `Could not ${action}: ${reason}`, cause: error });
  }
}

/**
 * Checks the text a store returned: a string or `null`; anything else is a broken store.
 *
 * @throws {StateStoreError} for any other value.
 */
export function storedText(value: unknown, action: string): string | null {
  if (value === null || typeof value === "string") return value;
  throw new StateStoreError({
    message: `Could not ${action}: the store returned ${value === undefined ? "undefined" : `a ${typeof value}`} instead of text or null`,
  });
}

/**
 * Refuses an unsafe terminal id before any store sees it.
 *
 * @throws {StateStoreError} when `terminalId` is not a safe terminal id.
 */
export function requireSafeTerminalId(terminalId: unknown): asserts terminalId is string {
  if (isSafeTerminalId(terminalId)) return;
  const shown =
    typeof terminalId === "string"
      ? JSON.stringify(terminalId.length > 80 ? `${terminalId.slice(0, 80)}…` : terminalId)
      : String(terminalId);
  throw new StateStoreError({
    message: `Unsafe terminal id ${shown}: a terminal id is 1 to 64 characters of A-Z a-z 0-9 . _ - not starting with "." (getTerminalId and sanitizeTerminalId return such ids)`,
  });
}

import type { LockHolder } from "@loop/core";

/**
 * The text of a lock file: one line of JSON, `{"pid":…,"host":"…","startedAt":"…"}`.
 *
 * @param holder - who holds the lock.
 * @returns the lock file's content.
 */
export function formatLockHolder(holder: LockHolder): string {
  return `${JSON.stringify({ pid: holder.pid, host: holder.host, startedAt: holder.startedAt })}\n`;
}

/**
 * Reads a lock file's text back into its holder, or `null` when it is not a complete, valid
 * lock (empty, cut short, not JSON, a pid that is not a positive integer, a missing host or
 * start time): such a lock is "unreadable".
 *
 * @param text - the lock file's content.
 * @returns the holder, or `null`.
 */
export function parseLockHolder(text: string): LockHolder | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { pid, host, startedAt } = value as Record<string, unknown>;
  if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid <= 0) return null;
  if (typeof host !== "string" || host === "") return null;
  if (typeof startedAt !== "string" || startedAt === "") return null;
  return { pid, host, startedAt };
}

/**
 * The holder reported in `takenOverFrom` when the lock taken over was unreadable: pid `0` (no
 * process has it), host `"unknown"`, and the lock file's modification time as `startedAt`.
 *
 * @param modifiedAtMs - the unreadable lock file's modification time.
 */
export function unknownLockHolder(modifiedAtMs: number): LockHolder {
  return { pid: 0, host: "unknown", startedAt: new Date(modifiedAtMs).toISOString() };
}

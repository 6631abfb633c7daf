import type { Clock } from "@loop/core";
import type { IterationLogFile } from "@loop/fs";

/** How often `loop logs --follow` looks for a new log. */
export const FOLLOW_POLL_MS = 500;

/** Options of {@link followLogs}. */
export interface FollowLogsOptions {
  /** The logs to follow, oldest first, read afresh at each call. */
  readonly list: () => Promise<readonly IterationLogFile[]>;
  /** Prints one log. */
  readonly print: (log: IterationLogFile) => Promise<void>;
  /** Called once when there is no log yet to start with. */
  readonly onWaiting?: (() => void) | undefined;
  /** Waits between looks (`systemClock.sleep`; a test clock in tests). */
  readonly sleep: Clock["sleep"];
  /** How long to wait between looks. Default {@link FOLLOW_POLL_MS}. */
  readonly pollMs?: number | undefined;
  /** Ends the following (Ctrl+C). */
  readonly signal: AbortSignal;
}

/**
 * `loop logs --follow`: prints the newest log, then every log that appears after it, in order,
 * looking every `pollMs`, until `signal` fires. A log counts as new when its name sorts after
 * the last one printed (names sort by start time), so logs deleted by retention meanwhile are
 * no trouble.
 *
 * @param options - where the logs come from, how to print them, the waiting and the signal.
 * @returns when `signal` has fired; rejects when listing or printing fails.
 */
export async function followLogs(options: FollowLogsOptions): Promise<void> {
  const { list, print, sleep, signal } = options;
  const pollMs = options.pollMs ?? FOLLOW_POLL_MS;
  let last: string | null = null;
  let first = true;
  while (!signal.aborted) {
    const logs = await list();
    // The first look shows the newest log only; later ones every log after the last shown.
    const fresh = first ? logs.slice(-1) : logs.filter((log) => last === null || log.name > last);
    if (first && fresh.length === 0) options.onWaiting?.();
    first = false;
    for (const log of fresh) {
      if (signal.aborted) return;
      await print(log);
      last = log.name;
    }
    await sleep(pollMs, signal);
  }
}

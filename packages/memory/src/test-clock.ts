import type { Clock } from "@loop/core";

/** Options of {@link createTestClock}. */
export interface TestClockOptions {
  /** The virtual time the clock starts at. Default: `2026-01-01T00:00:00.000Z`. */
  readonly start?: number | Date | undefined;
}

/** A `Clock` on virtual time, as {@link createTestClock} returns it. */
export interface TestClock extends Clock {
  /** The current virtual time, in epoch milliseconds. */
  now(): number;
  /**
   * Sleeps `ms` of virtual time (a negative `ms` counts as 0, as with `setTimeout`). The sleep
   * ends when the clock reaches its end: by itself once nothing else is pending, or through
   * {@link TestClock.advance} and {@link TestClock.set}. When `signal` fires first, or has
   * already fired, the sleep resolves at once, without error, as the system clock's does.
   * Every call is recorded in {@link TestClock.sleeps}.
   *
   * @throws {RangeError} (as a rejection) when `ms` is not a finite number.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** The `ms` of every `sleep` call, as asked, oldest first, those cut short included. */
  readonly sleeps: readonly number[];
  /** The milliseconds of the sleeps that ran their full length, added up (a negative `ms` counts as 0). */
  readonly totalSlept: number;
  /** How many sleeps are waiting for the clock to reach their end. */
  readonly pendingSleeps: number;
  /**
   * Moves the clock forward by `ms`, as time passing outside any sleep (an agent's run), and
   * ends the sleeps that reach their end, earliest first.
   *
   * @returns the new time.
   * @throws {RangeError} when `ms` is not a finite number, 0 or more.
   */
  advance(ms: number): number;
  /**
   * Sets the clock to `time`, forward or back (a clock jump), and ends the sleeps that reach
   * their end, earliest first. A sleep's end is a fixed time: setting the clock back delays it.
   *
   * @returns the new time.
   * @throws {RangeError} when `time` is not a valid Date or finite epoch milliseconds.
   */
  set(time: number | Date): number;
}

/** The default start of a {@link TestClock}: 2026-01-01T00:00:00.000Z. */
const DEFAULT_START = Date.UTC(2026, 0, 1);

/** One sleep waiting for the clock to reach its end. */
interface PendingSleep {
  /** The virtual time it ends at. */
  readonly end: number;
  /** The milliseconds slept, 0 or more. */
  readonly length: number;
  /** Resolves the sleep and forgets it. */
  readonly finish: (ranFullLength: boolean) => void;
}

/**
 * A `Clock` for tests, on virtual time: no sleep waits in real time, so an hour-long
 * usage-limit wait takes a moment, and the test can check every wait the code asked for.
 *
 * Time moves only when the code waits: once nothing else is pending (no promise reaction left
 * in this turn of the event loop), the clock jumps to the end of the earliest sleep and ends
 * it, then lets the code run again. So work that settles by itself, such as a scripted
 * executor's answer, always beats a timeout raced against it with `clock.sleep`, and a timeout
 * ends only work that hangs, as in real time. {@link TestClock.advance} and
 * {@link TestClock.set} move the clock by hand. It never reads the host's time or sets a real
 * timer: it only yields to the event loop (`setImmediate`) to see that nothing else is pending.
 * Work that waits on real I/O (a file, a process) is not "pending" for the clock: a sleep raced
 * against it may end first.
 *
 * @example
 * ```ts
 * const clock = createTestClock({ start: new Date("2026-03-14T10:00:00Z") });
 * await clock.sleep(60 * 60 * 1000); // ends at once: nothing else is pending
 * new Date(clock.now()).toISOString(); // "2026-03-14T11:00:00.000Z"
 * clock.sleeps; // [3600000]
 * clock.advance(30_000); // an agent's run of 30 s
 * ```
 *
 * @param options - the start time.
 * @throws {RangeError} when `start` is not a valid Date or finite epoch milliseconds.
 */
export function createTestClock(options?: TestClockOptions | null): TestClock {
  let current = timeOption(options?.start ?? DEFAULT_START, "Option `start`");
  let totalSlept = 0;
  const sleeps: number[] = [];
  let pending: PendingSleep[] = [];
  let idleCheckScheduled = false;

  /** Ends, earliest first, every sleep the clock has reached. */
  const finishReached = (): void => {
    const reached = pending.filter((sleep) => sleep.end <= current);
    for (const sleep of reached) sleep.finish(true);
  };

  /** When nothing else is pending: jump to the earliest sleep's end, end it, and look again. */
  const scheduleIdleCheck = (): void => {
    if (idleCheckScheduled || pending.length === 0) return;
    idleCheckScheduled = true;
    setImmediate(() => {
      idleCheckScheduled = false;
      const earliest = pending[0];
      if (earliest === undefined) return;
      current = Math.max(current, earliest.end);
      finishReached();
      scheduleIdleCheck();
    });
  };

  return {
    now: () => current,
    sleep(ms: number, signal?: AbortSignal) {
      if (typeof ms !== "number" || !Number.isFinite(ms)) {
        return Promise.reject(
          new RangeError(`TestClock.sleep: ms must be a finite number, got ${String(ms)}`),
        );
      }
      sleeps.push(ms);
      if (signal?.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const length = Math.max(0, ms);
        const onAbort = (): void => sleep.finish(false);
        const sleep: PendingSleep = {
          end: current + length,
          length,
          finish: (ranFullLength) => {
            pending = pending.filter((other) => other !== sleep);
            signal?.removeEventListener("abort", onAbort);
            if (ranFullLength) totalSlept += length;
            resolve();
          },
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        // Kept by end, then in call order: sleeps ending together end in the order they began.
        const index = pending.findIndex((other) => other.end > sleep.end);
        pending.splice(index < 0 ? pending.length : index, 0, sleep);
        scheduleIdleCheck();
      });
    },
    sleeps,
    get totalSlept() {
      return totalSlept;
    },
    get pendingSleeps() {
      return pending.length;
    },
    advance(ms: number) {
      if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) {
        throw new RangeError(
          `TestClock.advance: ms must be a finite number, 0 or more, got ${String(ms)}`,
        );
      }
      current += ms;
      finishReached();
      return current;
    },
    set(time: number | Date) {
      current = timeOption(time, "TestClock.set: the time");
      finishReached();
      return current;
    },
  };
}

/** A time given as a Date or epoch milliseconds, as epoch milliseconds. */
function timeOption(time: number | Date, what: string): number {
  const value = time instanceof Date ? time.getTime() : time;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new RangeError(
      `${what} must be a valid Date or finite epoch milliseconds, got ${time instanceof Date ? "an invalid Date" : String(time)}`,
    );
  }
  return value;
}

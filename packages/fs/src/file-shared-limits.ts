import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import {
  type CallClaim,
  type CallRelease,
  type CostRecord,
  checkSharedLimitValues,
  claimSharedCall,
  recordSharedCost,
  releaseSharedCall,
  type SharedCounters,
  type SharedLimits,
  type SharedLimitsCallOptions,
  type SharedLimitsUsage,
  sharedCountersOf,
  sharedUsage,
} from "@loop/core";
import { atomicWriteFile } from "./atomic-write.js";
import { errorCodeOf } from "./atomic-write-error-code.js";
import { acquireFileLock } from "./file-lock.js";
import { requirePathOption } from "./path-option.js";
import { createSerialQueue, type SerialQueue } from "./serial-queue.js";

/** Options of {@link createFileSharedLimits}. */
export interface FileSharedLimitsOptions {
  /**
   * The counter file every loop sharing the limits names (`~/.loop/shared-limits.json`); its
   * lock is `<path>.lock`. Its folder must exist. Required.
   */
  readonly path: string;
  /** Agent calls the loops may make together per UTC clock hour: an integer ≥ 1. Default: none. */
  readonly maxCallsPerHour?: number | null | undefined;
  /** What the loops may spend together, in US dollars: a finite amount ≥ 0. Default: none. */
  readonly maxCostUsd?: number | null | undefined;
  /**
   * How long an operation waits for another process's lock on the counter file before it
   * fails (the engine then retries): default 5,000 ms.
   */
  readonly lockWaitMs?: number | null | undefined;
}

/** The counter file's content: version 1. */
interface CounterFile {
  readonly version: 1;
  readonly window_start: string;
  readonly calls_made: number;
  readonly cost_usd: number;
}

/** Pause between attempts while another process holds the lock. */
const lockRetryMs = 5;

/** Each counter file's queue in this process: the lock file is one process's at a time. */
const queues = new Map<string, SerialQueue>();

function queueFor(path: string): SerialQueue {
  let queue = queues.get(path);
  if (queue === undefined) {
    queue = createSerialQueue();
    queues.set(path, queue);
  }
  return queue;
}

/** The counters the file holds; `null` when there is no file yet. */
async function readCounters(path: string): Promise<SharedCounters | null> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (errorCodeOf(error) === "ENOENT") return null;
    throw error;
  }
  let parsed: Partial<CounterFile> | null = null;
  try {
    parsed = JSON.parse(text) as Partial<CounterFile>;
  } catch {
    // Reported below.
  }
  const counters = sharedCountersOf({
    windowStart: Date.parse(parsed?.window_start ?? ""),
    callsMade: parsed?.calls_made,
    costUsd: parsed?.cost_usd,
  });
  if (parsed?.version !== 1 || counters === null) {
    // Never a guess: a count made up from a broken file could let the fleet exceed its limits.
    throw new Error(
      `${path} is not a shared limits counter file (version 1: window_start, calls_made, cost_usd); fix or remove it to start counting anew`,
    );
  }
  return counters;
}

function formatCounters(counters: SharedCounters): string {
  const file: CounterFile = {
    version: 1,
    window_start: new Date(counters.windowStart).toISOString(),
    calls_made: counters.callsMade,
    cost_usd: counters.costUsd,
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/**
 * Shared limits in a file, for loops in several processes on **one** machine (several projects,
 * several terminals): each operation takes the file's lock (`<path>.lock`, the same lock as the
 * state store's: a holder that died is taken over), reads the counters, applies
 * `claimSharedCall` (or `recordSharedCost`, `releaseSharedCall`) and writes them back
 * atomically before letting go: atomic across the processes. The window is the UTC hour by this
 * machine's clock. Loops on several machines need a database instead (docs/shared-limits.md).
 *
 * @example
 * ```ts
 * const sharedLimits = createFileSharedLimits({
 *   path: join(homedir(), ".loop", "shared-limits.json"),
 *   maxCallsPerHour: 100,
 *   maxCostUsd: 50,
 * });
 * await runLoop({ plan, executor, store, sharedLimits });
 * ```
 *
 * @param options - the counter file and the limits.
 * @throws {TypeError} when `path` is missing; a `RangeError` when a limit is not valid.
 */
export function createFileSharedLimits(options: FileSharedLimitsOptions): SharedLimits & {
  releaseCall(release: CallRelease, options?: SharedLimitsCallOptions): Promise<void>;
  readUsage(options?: SharedLimitsCallOptions): Promise<SharedLimitsUsage>;
} {
  const path = resolve(requirePathOption(options, "createFileSharedLimits"));
  const limits = checkSharedLimitValues(options, "createFileSharedLimits");
  const lockWaitMs = options.lockWaitMs ?? 5_000;
  if (typeof lockWaitMs !== "number" || !Number.isFinite(lockWaitMs) || lockWaitMs < 0) {
    throw new RangeError(
      `createFileSharedLimits: option \`lockWaitMs\` must be a finite number ≥ 0, got ${String(lockWaitMs)}`,
    );
  }
  const queue = queueFor(path);

  /** Runs `change` on the counters under the lock, writing what it returns when it changed them. */
  const update = <Result>(
    change: (
      counters: SharedCounters | null,
      now: number,
    ) => {
      readonly counters: SharedCounters | null;
      readonly result: Result;
    },
    signal?: AbortSignal,
  ): Promise<Result> =>
    queue.run(async () => {
      const deadline = Date.now() + lockWaitMs;
      for (;;) {
        const attempt = await acquireFileLock(`${path}.lock`, { signal });
        if (attempt.acquired) {
          try {
            const before = await readCounters(path);
            const after = change(before, Date.now());
            if (after.counters !== null && after.counters !== before) {
              await atomicWriteFile(path, formatCounters(after.counters), { mode: 0o600 });
            }
            return after.result;
          } finally {
            await attempt.lock.release();
          }
        }
        if (Date.now() >= deadline) {
          const holder = attempt.holder;
          throw new Error(
            `${path}.lock is held by pid ${holder.pid} on ${holder.host} (since ${holder.startedAt}) for more than ${lockWaitMs} ms`,
          );
        }
        await sleep(lockRetryMs, undefined, { signal });
      }
    });

  return {
    name: "file",
    specificationVersion: "v1",
    claimCall(_caller, callOptions): Promise<CallClaim> {
      return update((counters, now) => {
        const claimed = claimSharedCall(counters, now, limits);
        return { counters: claimed.claim.granted ? claimed.counters : null, result: claimed.claim };
      }, callOptions?.signal);
    },
    recordCost(record: CostRecord, callOptions): Promise<SharedLimitsUsage> {
      const cost = record.costUsd;
      if (typeof cost !== "number" || !Number.isFinite(cost) || cost <= 0) {
        return Promise.reject(
          new RangeError(
            `FileSharedLimits.recordCost: costUsd must be a finite amount > 0 in US dollars, got ${String(cost)}`,
          ),
        );
      }
      return update((counters, now) => {
        const next = recordSharedCost(counters, now, cost);
        return { counters: next, result: sharedUsage(next, now, limits) };
      }, callOptions?.signal);
    },
    releaseCall(release: CallRelease, callOptions?: SharedLimitsCallOptions): Promise<void> {
      return update((counters, now) => {
        const next = releaseSharedCall(counters, now, release.windowStart);
        return {
          counters: next.callsMade === counters?.callsMade ? null : next,
          result: undefined,
        };
      }, callOptions?.signal);
    },
    readUsage(callOptions?: SharedLimitsCallOptions): Promise<SharedLimitsUsage> {
      return update(
        (counters, now) => ({ counters: null, result: sharedUsage(counters, now, limits) }),
        callOptions?.signal,
      );
    },
  };
}

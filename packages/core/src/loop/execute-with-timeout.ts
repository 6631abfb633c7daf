import type { Clock } from "./clock.js";
import type { ExecuteOptions, ExecutionRequest, ExecutionResult, Executor } from "./executor.js";

/** How long an executor may take to stop after its signal fired before the loop moves on. */
export const ABANDON_AFTER_ABORT_MS = 30_000;

/** The outcome of one execution, whatever happened. */
export interface ExecutionOutcome {
  /** The executor's result, or a failed result standing in for a throw, timeout or abandonment. */
  readonly result: ExecutionResult;
  /** The iteration timed out (`limits.iteration_timeout_minutes`). */
  readonly timedOut: boolean;
  /** The caller's signal fired during the execution. */
  readonly aborted: boolean;
  /** What the executor threw, if it threw. */
  readonly thrown: unknown;
}

/** `timed out after 30 minutes` (`1.5 minutes`, `45 seconds`): the failure of a timed-out run. */
export function timeoutMessage(timeoutMs: number): string {
  const round = (value: number) => Number(value.toFixed(2)).toString();
  if (timeoutMs < 60_000) {
    const seconds = round(timeoutMs / 1000);
    return `timed out after ${seconds} second${seconds === "1" ? "" : "s"}`;
  }
  const minutes = round(timeoutMs / 60_000);
  return `timed out after ${minutes} minute${minutes === "1" ? "" : "s"}`;
}

/** Why the run's timers are stopped once it settles; nobody reads it. */
const TIMERS_STOPPED = "the run settled";

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs the executor once with the iteration timeout and the caller's signal. A throw is a failed
 * result, never a loop crash; an executor that does not stop within {@link ABANDON_AFTER_ABORT_MS}
 * of its signal firing is abandoned with a failed result.
 */
export async function executeWithTimeout(
  executor: Executor,
  request: ExecutionRequest,
  options: {
    readonly clock: Clock;
    readonly timeoutMs: number;
    readonly signal?: AbortSignal | undefined;
    /** Passed on to the executor as `ExecuteOptions.recordProcess`. */
    readonly recordProcess?: ExecuteOptions["recordProcess"];
  },
): Promise<ExecutionOutcome> {
  const controller = new AbortController();
  const stopTimers = new AbortController();
  let timedOut = false;
  const onCallerAbort = () => controller.abort();
  options.signal?.addEventListener("abort", onCallerAbort, { once: true });
  if (options.signal?.aborted) controller.abort();

  void options.clock.sleep(options.timeoutMs, stopTimers.signal).then(() => {
    if (stopTimers.signal.aborted) return;
    timedOut = true;
    controller.abort();
  });
  const abandoned = new Promise<"abandoned">((resolve) => {
    const onAbort = () => {
      void options.clock.sleep(ABANDON_AFTER_ABORT_MS, stopTimers.signal).then(() => {
        if (!stopTimers.signal.aborted) resolve("abandoned");
      });
    };
    if (controller.signal.aborted) onAbort();
    else controller.signal.addEventListener("abort", onAbort, { once: true });
  });

  const failed = (error: string): ExecutionResult => ({ output: "", success: false, error });
  try {
    const settled = await Promise.race([
      executor
        .execute(request, { signal: controller.signal, recordProcess: options.recordProcess })
        .then(
          (result) => ({ kind: "result" as const, result }),
          (thrown: unknown) => ({ kind: "thrown" as const, thrown }),
        ),
      abandoned,
    ]);
    const aborted = options.signal?.aborted === true;
    if (settled === "abandoned") {
      return {
        result: failed(
          `the executor did not stop within ${ABANDON_AFTER_ABORT_MS / 1000} s of being aborted`,
        ),
        timedOut,
        aborted,
        thrown: null,
      };
    }
    if (settled.kind === "thrown") {
      return {
        result: failed(timedOut ? timeoutMessage(options.timeoutMs) : messageOf(settled.thrown)),
        timedOut,
        aborted,
        thrown: settled.thrown,
      };
    }
    const result = settled.result;
    return {
      // The executor saw only its signal fire ("aborted"); the loop knows it was the timeout.
      result: timedOut
        ? { ...result, success: false, error: timeoutMessage(options.timeoutMs) }
        : result,
      timedOut,
      aborted,
      thrown: null,
    };
  } finally {
    // With a reason of its own: an abort without one builds a DOMException (a stack trace).
    stopTimers.abort(TIMERS_STOPPED);
    options.signal?.removeEventListener("abort", onCallerAbort);
  }
}

import type { ExecutionResult } from "@loop/core";

/** One finished iteration, as {@link IterationLog.write} writes it. */
export interface IterationLogEntry {
  /** The iteration number (the terminal's count, across runs). */
  readonly iteration: number;
  /** `task`, or `wrap_up` when every task was done and the agent verified the work. */
  readonly kind: "task" | "wrap_up";
  /** The task worked on; `null` for a wrap-up. */
  readonly taskId: string | null;
  /** Which attempt at the task it was, from 1. */
  readonly attempt: number;
  /** When the iteration started, epoch milliseconds. */
  readonly startedAt: number;
  /** When it ended, epoch milliseconds. */
  readonly endedAt: number;
  /** What the executor returned: its `raw` output is the body of the log (else its `output`). */
  readonly result: ExecutionResult;
  /** The tasks whose boxes this iteration checked. Default: none. */
  readonly tasksCompleted?: readonly string[] | null | undefined;
  /** The exit decision after the iteration; absent when unknown. */
  readonly decision?: { readonly exit: boolean; readonly reason: string | null } | null | undefined;
}

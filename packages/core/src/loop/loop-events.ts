import type { DecisionEvent } from "../observe/decision-event.js";
import type { Task } from "../plan/task.js";
import type { ExitReason } from "../policy/exit-reasons.js";
import type { ExitDecision } from "../policy/should-exit.js";
import type { LoopState } from "../state/loop-state.js";
import type { Concern } from "../verify/user-concerns.js";
import type { VerificationResult } from "../verify/verify-completion.js";
import type { ExecutionResult } from "./executor.js";

/**
 * The typed events of a running loop, for UIs that embed it (`loop.on("iteration-start", …)`).
 * Names are noun then action; each mirrors a decision-log event where one exists.
 */
export interface LoopEvents {
  /** An iteration begins (decision event `iteration_start`). */
  "iteration-start": (event: {
    readonly iteration: number;
    readonly task: Task | null;
    readonly attempt: number;
    readonly kind: "task" | "wrap_up";
    /** Parallel runs: the task's working copy and branch. Absent in a serial run. */
    readonly workspace?: { readonly path: string; readonly branch: string } | undefined;
  }) => void;
  /** An iteration ended (decision event `iteration_end`), with the exit decision. */
  "iteration-end": (event: {
    readonly iteration: number;
    readonly result: ExecutionResult;
    readonly tasksCompleted: readonly string[];
    readonly decision: ExitDecision;
    /**
     * The loop's state as saved at the iteration's end (counts, calls, cost), so a display
     * need not read it back from the store.
     */
    readonly state: Readonly<LoopState>;
  }) => void;
  /** A task's box became checked. */
  "task-complete": (event: { readonly taskId: string; readonly iteration: number }) => void;
  /** A task used its attempts and was marked failed (decision event `task_failed`). */
  "task-failed": (event: {
    readonly taskId: string;
    readonly attempts: number;
    readonly reason: string;
  }) => void;
  /**
   * The loop waits for the hourly call limit or the agent's usage limit to reset (decision
   * events `rate_limit_wait`, `usage_limit_wait`).
   */
  wait: (event: {
    readonly kind: "rate_limit" | "usage_limit";
    /**
     * For `rate_limit`: `fleet` when the shared limits' hourly calls are used up
     * (`RunLoopOptions.sharedLimits`), `loop` (or absent) for this loop's own.
     */
    readonly scope?: "loop" | "fleet" | undefined;
    readonly until: number;
    readonly waitMs: number;
    readonly message: string;
  }) => void;
  /**
   * Verification ran (once every required task is done, or a user concern appeared): the
   * verdict, the unmet requirements and the unresolved concerns, for `verifier.log`.
   */
  verification: (event: {
    readonly passed: boolean;
    readonly unmet: readonly string[];
    readonly concerns: readonly Concern[];
    /** The whole verdict, every requirement's match included: what `createVerifierLog` logs. */
    readonly result: VerificationResult;
  }) => void;
  /**
   * Parallel runs: a task's work was brought onto the main line (decision event
   * `task_integrated`), or it conflicted and was rolled back (`merge_conflict`).
   */
  integration: (event: {
    readonly taskId: string;
    readonly iteration: number;
    readonly outcome: "integrated" | "conflict" | "refused";
    readonly branch: string;
    readonly commit: string | null;
    readonly files: readonly string[];
  }) => void;
  /** The loop stopped (decision event `loop_exit`). */
  exit: (event: { readonly reason: ExitReason; readonly complete: boolean }) => void;
  /** Every decision event, as written to the decision log. */
  decision: (event: DecisionEvent) => void;
}

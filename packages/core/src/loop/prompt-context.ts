import type { Task } from "../plan/task.js";
import type { Concern } from "../verify/user-concerns.js";

/**
 * Everything the prompt of one iteration is built from: plain data the engine gathers
 * before it runs the agent. Task, plan, question, requirement, concern and failure texts are
 * data: they appear in the prompt literally and are never read as a template.
 */
export interface PromptContext {
  /** `task`: work on {@link PromptContext.task}; `wrap_up`: every task is done, verify and signal. */
  readonly kind: "task" | "wrap_up";
  /** The task to work on; `null` for a wrap-up iteration. Required when `kind` is `task`. */
  readonly task: Task | null;
  /** The plan: its path (or name), which the agent reads and edits, and its text. */
  readonly plan: { readonly path: string; readonly text: string };
  /** The iteration number, from 1. */
  readonly iteration: number;
  /** Which attempt at this task this is, from 1 (1 for a wrap-up). */
  readonly attempt: number;
  /** Attempts allowed per task before it is marked failed (`tasks.max_attempts`). */
  readonly maxAttempts: number;
  /** Requirements of the plan that the last verification found unmet. */
  readonly unmetRequirements: readonly string[];
  /** Unresolved user concerns the last verification found. */
  readonly concerns: readonly Concern[];
  /** The questions the agent asked in the last iteration, which nobody will answer. */
  readonly unansweredQuestions: readonly string[];
  /**
   * Why the last attempt at this task failed (`"timed out after 15 minutes"`, an error
   * summary); `null` when unknown or when this is the first attempt. Pass a summary, not a
   * whole log: it is quoted in full.
   */
  readonly previousFailure: string | null;
  /**
   * The text of the `<promise>TEXT</promise>` the agent outputs when the whole plan is
   * complete (the ralph-loop convention); `null` when the loop does not use one.
   */
  readonly completionPromise: string | null;
}

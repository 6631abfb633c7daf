import type { LoopConfig } from "../config/loop-config.js";
import type { Concern } from "../verify/user-concerns.js";
import { buildPrompt } from "./build-prompt.js";
import type { ExecutionRequest } from "./executor.js";
import type { LoopTask, PlanView } from "./plan-view.js";
import type { RunLoopOptions } from "./run-loop-options.js";
import type { TaskWorkspace } from "./workspace.js";

/** What one iteration asks of the executor, before the prompt is built. */
export interface IterationContext {
  readonly options: RunLoopOptions;
  readonly config: LoopConfig;
  readonly view: PlanView;
  /** The task to run; `null` for a wrap-up iteration. */
  readonly task: LoopTask | null;
  readonly iteration: number;
  readonly attempt: number;
  readonly terminalId: string;
  readonly sessionId: string | null;
  readonly unmetRequirements: readonly string[];
  readonly concerns: readonly Concern[];
  readonly unansweredQuestions: readonly string[];
  /** Why the task's previous attempt failed; `null` when it did not, or for a wrap-up. */
  readonly previousFailure: string | null;
  /** Parallel runs: the task's working copy; the plan the agent gets is the copy in it. */
  readonly workspace?: TaskWorkspace | undefined;
}

/** The request the executor gets for an iteration, its prompt built from the template. */
export function iterationRequest(context: IterationContext): ExecutionRequest {
  const { options, task } = context;
  const kind = task ? "task" : "wrap_up";
  const workspace = context.workspace;
  const plan = { path: workspace?.plan.path ?? options.plan.path, text: context.view.text };
  const prompt = buildPrompt(
    {
      kind,
      task,
      plan,
      iteration: context.iteration,
      attempt: context.attempt,
      maxAttempts: context.config.tasks.max_attempts,
      unmetRequirements: context.unmetRequirements,
      concerns: context.concerns,
      unansweredQuestions: context.unansweredQuestions,
      previousFailure: context.previousFailure,
      completionPromise: options.prompt?.completionPromise ?? null,
    },
    {
      template: options.prompt?.template ?? null,
      templateFile: options.prompt?.templateFile ?? undefined,
    },
  );
  return {
    kind,
    task,
    prompt,
    iteration: context.iteration,
    attempt: context.attempt,
    terminalId: context.terminalId,
    plan,
    sessionId: context.sessionId,
    unmetRequirements: context.unmetRequirements,
    concerns: context.concerns,
    ...(workspace === undefined
      ? {}
      : { workspace: { path: workspace.path, branch: workspace.branch } }),
  };
}

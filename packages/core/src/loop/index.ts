export type { AgentProcess, SurvivorReport } from "./agent-process-info.js";
export { type BuildPromptOptions, buildPrompt } from "./build-prompt.js";
export { MAX_USAGE_LIMIT_WAIT_MS } from "./checked-result.js";
export type { Clock } from "./clock.js";
export {
  ABANDON_AFTER_ABORT_MS,
  type ExecutionOutcome,
  executeWithTimeout,
} from "./execute-with-timeout.js";
export type {
  ExecuteOptions,
  ExecutionRequest,
  ExecutionResult,
  Executor,
  RequestWorkspace,
  UsageLimit,
} from "./executor.js";
export type { LoopEvents } from "./loop-events.js";
export { type IterationOutcome, observeOutcome } from "./observe-outcome.js";
export { type LoopTask, storyTasks } from "./plan-view.js";
export { type IterationPreview, previewIteration } from "./preview-iteration.js";
export type { PromptContext } from "./prompt-context.js";
export {
  PROMPT_PLACEHOLDER_NAMES,
  PROMPT_PLACEHOLDERS,
  type PromptPlaceholder,
} from "./prompt-placeholders.js";
export { STATUS_BLOCK_TEMPLATE } from "./prompt-status-block.js";
export { DEFAULT_PROMPT_TEMPLATE, LOOP_INSTRUCTIONS_TEMPLATE } from "./prompt-template.js";
export {
  PromptTemplateError,
  type PromptTemplateErrorOptions,
  type PromptTemplateIssue,
} from "./prompt-template-error.js";
export {
  type ParsedPromptTemplate,
  type ParsePromptTemplateOptions,
  type PromptTemplateSegment,
  parsePromptTemplate,
} from "./prompt-template-parser.js";
export { type PromptValues, renderTemplate } from "./render-template.js";
export { createLoop, type Loop, runLoop, UNKNOWN_RESET_WAIT_MS } from "./run-loop.js";
export type {
  ExitPolicy,
  LoopResult,
  ParallelOptions,
  RunLoopOptions,
} from "./run-loop-options.js";
export type {
  CallClaim,
  CallRelease,
  CostRecord,
  SharedLimits,
  SharedLimitsCaller,
  SharedLimitsCallOptions,
  SharedLimitsUsage,
} from "./shared-limits.js";
export { SharedLimitsError } from "./shared-limits-error.js";
export { SHARED_LIMITS_RETRY_DELAYS_MS } from "./shared-limits-gate.js";
export { systemClock } from "./system-clock.js";
export { UnsupportedExecutorError } from "./unsupported-executor-error.js";
export { UnsupportedSharedLimitsError } from "./unsupported-shared-limits-error.js";
export type {
  CloseOptions,
  IntegrateOptions,
  Integration,
  KeptWork,
  MergeConflict,
  TaskWorkspace,
  WorkspaceRecovery,
  WorkspaceSave,
  Workspaces,
} from "./workspace.js";

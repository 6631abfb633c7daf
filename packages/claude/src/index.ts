/**
 * The Claude Code adapter of the loop SDK, its pure core: read the CLI's
 * `--output-format stream-json --verbose` output, recognise usage limits and when they reset,
 * build the CLI's arguments, turn a run into the engine's `ExecutionResult`, and decide the
 * ralph loop's Stop hook.
 *
 * @packageDocumentation
 */
export {
  buildClaudeArgs,
  type ClaudeArgsOptions,
  type ClaudePermissionMode,
} from "./build-claude-args.js";
export {
  ClaudeExecutor,
  type ClaudeExecutorOptions,
  type ClaudeStreamEvent,
} from "./claude-executor.js";
export type {
  ClaudeApiErrorMessage,
  ClaudeModelUsage,
  ClaudeRateLimitRejection,
  ClaudeResult,
  ClaudeRun,
  ClaudeToolUse,
  ClaudeUsage,
} from "./claude-run.js";
export {
  type ClaudeStreamParser,
  createClaudeStreamParser,
  parseClaudeStream,
} from "./claude-stream-parser.js";
export { type DetectUsageLimitOptions, detectUsageLimit } from "./detect-usage-limit.js";
export {
  parseRalphLoopState,
  type RalphLoopState,
  type RalphLoopStateProblem,
  type RalphLoopStateResult,
  withRalphLoopIteration,
} from "./ralph-loop-state.js";
export {
  type SkipPermissionsContext,
  skipPermissionsProblem,
} from "./skip-permissions-problem.js";
export {
  DEFAULT_RALPH_LOOP_STATE_PATH,
  handleStopHook,
  type StopHookBlockCap,
  type StopHookInput,
  type StopHookOptions,
  type StopHookResult,
  stopHookTerminalId,
  toHookOutput,
} from "./stop-hook.js";
export {
  DEFAULT_STOP_HOOK_BLOCK_CAP,
  readStopHookBlockCap,
  STOP_HOOK_BLOCK_CAP_VARIABLE,
} from "./stop-hook-block-cap.js";
export {
  decideStop,
  type StopHookPolicyDecision,
  type StopHookPolicyInput,
} from "./stop-hook-policy.js";
export { type ClaudeProcessOutcome, toExecutionResult } from "./to-execution-result.js";
export { isTransientOverload } from "./transient-overload.js";

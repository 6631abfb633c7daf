/**
 * The Claude Code adapter of the loop SDK, its pure core: read the CLI's
 * `--output-format stream-json --verbose` output, recognise usage limits and when they reset,
 * build the CLI's arguments, and turn a run into the engine's `ExecutionResult`.
 *
 * @packageDocumentation
 */
export {
  buildClaudeArgs,
  type ClaudeArgsOptions,
  type ClaudePermissionMode,
} from "./build-claude-args.js";
export type {
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
export { type ClaudeProcessOutcome, toExecutionResult } from "./to-execution-result.js";
export { isTransientOverload } from "./transient-overload.js";

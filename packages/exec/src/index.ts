export {
  AGENT_TOKEN_VARIABLE,
  type StopAgentSurvivorsOptions,
  stopAgentSurvivors,
} from "./agent-survivors.js";
export type { AiderExecutorOptions } from "./aider-executor.js";
export { aiderExecutor } from "./aider-executor.js";
export type { AmpExecutorOptions } from "./amp-executor.js";
export { ampExecutor } from "./amp-executor.js";
export type { CodexExecutorOptions, CodexSandbox } from "./codex-executor.js";
export { codexExecutor } from "./codex-executor.js";
export { CommandExecutor, defaultParse } from "./command-executor.js";
export type { CommandExecutorOptions } from "./command-executor-options.js";
export { DEFAULT_KILL_GRACE_MS, DEFAULT_TAIL_BYTES } from "./command-executor-options.js";
export type { CommandLine } from "./command-line.js";
export type { CommandRun } from "./command-run.js";
export type { GeminiApprovalMode, GeminiExecutorOptions } from "./gemini-executor.js";
export { geminiExecutor } from "./gemini-executor.js";
export type {
  GitProgress,
  GitProgressBeforeOptions,
  GitProgressOptions,
  GitProgressResult,
  GitProgressSettings,
  GitProgressSnapshot,
  GitRepositorySnapshot,
} from "./git-progress.js";
export { gitProgress } from "./git-progress.js";
export type { OutputLine, OutputStreamName } from "./output-stream.js";
export type { PresetOptions } from "./preset-options.js";
export { REMOVED_ENV_VARIABLES } from "./removed-env-variables.js";

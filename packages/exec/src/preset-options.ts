import type { CommandExecutorOptions } from "./command-executor-options.js";

/**
 * Options every preset takes: any {@link CommandExecutorOptions} except the argument mapping,
 * with `command` optional (to point at another binary or a test double).
 */
export type PresetOptions = Omit<
  CommandExecutorOptions,
  "command" | "args" | "promptVia" | "promptArgument"
> & {
  /** The binary to run. Default: the agent's usual name. */
  readonly command?: string | undefined;
  /** Extra arguments, placed after the preset's own flags. */
  readonly extraArgs?: readonly string[] | undefined;
};

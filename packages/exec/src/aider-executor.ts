import { CommandExecutor } from "./command-executor.js";
import type { PresetOptions } from "./preset-options.js";

/** Options of {@link aiderExecutor}. */
export type AiderExecutorOptions = PresetOptions & {
  /** Adds `--yes-always` (answer yes to every question). Default: `false`. */
  readonly yesAlways?: boolean | undefined;
  /** Adds `--no-auto-commits` (leave changes uncommitted). Default: `false`. */
  readonly noAutoCommits?: boolean | undefined;
};

/**
 * Aider: `aider --message <prompt> [--yes-always] [--no-auto-commits] [...extraArgs]`.
 *
 * @param options - the preset's options.
 * @returns the executor.
 */
export function aiderExecutor(options: AiderExecutorOptions = {}): CommandExecutor {
  const { command, extraArgs, yesAlways, noAutoCommits, ...rest } = options;
  const flags = [
    ...(yesAlways ? ["--yes-always"] : []),
    ...(noAutoCommits ? ["--no-auto-commits"] : []),
    ...(extraArgs ?? []),
  ];
  return new CommandExecutor({
    name: "aider",
    ...rest,
    command: command ?? "aider",
    args: flags,
    promptVia: "argument",
    promptArgument: (prompt, args) => ["--message", prompt, ...args],
  });
}

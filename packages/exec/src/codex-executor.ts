import { CommandExecutor } from "./command-executor.js";
import type { PresetOptions } from "./preset-options.js";

/** Options of {@link codexExecutor}. */
export type CodexExecutorOptions = PresetOptions & {
  /** Adds `--full-auto` (sandboxed automatic execution). Default: `false`. */
  readonly fullAuto?: boolean | undefined;
};

/**
 * OpenAI Codex CLI: `codex exec [--full-auto] [...extraArgs] <prompt>`.
 *
 * @param options - the preset's options.
 * @returns the executor.
 */
export function codexExecutor(options: CodexExecutorOptions = {}): CommandExecutor {
  const { command, extraArgs, fullAuto, ...rest } = options;
  return new CommandExecutor({
    name: "codex",
    ...rest,
    command: command ?? "codex",
    args: ["exec", ...(fullAuto ? ["--full-auto"] : []), ...(extraArgs ?? [])],
    promptVia: "argument",
  });
}

import { CommandExecutor } from "./command-executor.js";
import type { PresetOptions } from "./preset-options.js";

/** Options of {@link ampExecutor}. */
export type AmpExecutorOptions = PresetOptions;

/**
 * Sourcegraph Amp: `amp -x [...extraArgs]`, the prompt on standard input.
 *
 * @param options - the preset's options.
 * @returns the executor.
 */
export function ampExecutor(options: AmpExecutorOptions = {}): CommandExecutor {
  const { command, extraArgs, ...rest } = options;
  return new CommandExecutor({
    name: "amp",
    ...rest,
    command: command ?? "amp",
    args: ["-x", ...(extraArgs ?? [])],
    promptVia: "stdin",
  });
}

import { CommandExecutor } from "./command-executor.js";
import type { PresetOptions } from "./preset-options.js";

/** Options of {@link geminiExecutor}. */
export type GeminiExecutorOptions = PresetOptions;

/**
 * Google Gemini CLI: `gemini [...extraArgs] -p <prompt>`.
 *
 * @param options - the preset's options.
 * @returns the executor.
 */
export function geminiExecutor(options: GeminiExecutorOptions = {}): CommandExecutor {
  const { command, extraArgs, ...rest } = options;
  return new CommandExecutor({
    name: "gemini",
    ...rest,
    command: command ?? "gemini",
    args: [...(extraArgs ?? [])],
    promptVia: "argument",
    promptArgument: (prompt, args) => [...args, "-p", prompt],
  });
}

import { CommandExecutor } from "./command-executor.js";
import type { PresetOptions } from "./preset-options.js";

/** Options of {@link ampExecutor}. */
export type AmpExecutorOptions = PresetOptions;

/**
 * Amp (the npm package `@ampcode/cli`, formerly `@sourcegraph/amp`): `amp -x [...extraArgs]`,
 * the prompt on standard input (execute mode reads it there, so a prompt that starts with `-` is
 * never a flag). Amp's agent runs on Amp's service: set `AMP_API_KEY` (and `AMP_URL` for a
 * service other than ampcode.com) in the environment.
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

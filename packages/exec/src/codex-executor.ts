import { parseCodexRun } from "./codex-output.js";
import { CommandExecutor } from "./command-executor.js";
import type { PresetOptions } from "./preset-options.js";

/**
 * The sandbox of the shell commands Codex runs (`codex exec --sandbox <mode>`):
 * - `"read-only"`: read anything, write nothing (Codex's own default; the agent cannot edit).
 * - `"workspace-write"`: write the working directory and temporary folders, no network.
 * - `"danger-full-access"`: no sandbox at all; only inside a sandbox of your own.
 */
export type CodexSandbox = "read-only" | "workspace-write" | "danger-full-access";

/** The sandbox modes `codex exec --sandbox` takes. */
const CODEX_SANDBOXES: readonly CodexSandbox[] = [
  "read-only",
  "workspace-write",
  "danger-full-access",
];

/** Options of {@link codexExecutor}. */
export type CodexExecutorOptions = PresetOptions & {
  /**
   * The sandbox of the commands Codex runs. Default: `"workspace-write"`, so the agent can edit
   * the project (its working directory).
   */
  readonly sandbox?: CodexSandbox | undefined;
  /**
   * @deprecated Codex CLI 0.150 removed `--full-auto` (`codex exec` rejects it). `true` now
   * means `sandbox: "workspace-write"`, what `--full-auto` chose for `codex exec`, which is also
   * the default; `false` changes nothing (for the read-only sandbox pass `sandbox: "read-only"`).
   * `sandbox` wins when both are given.
   */
  readonly fullAuto?: boolean | undefined;
};

/**
 * OpenAI Codex CLI, non-interactive:
 * `codex exec --sandbox <sandbox> -c approval_policy="never" [...extraArgs] -- <prompt>`.
 *
 * - `--sandbox` (default `workspace-write`): `codex exec` is read-only unless told otherwise.
 * - `approval_policy="never"`: nobody can answer an approval prompt in a loop; a command the
 *   sandbox refuses fails and the model is told. Set here so a user `config.toml` with another
 *   policy cannot stop the run.
 * - `--` before the prompt: a prompt starting with `-` (a `---` front-matter line, say) is read
 *   as the prompt, not as a flag.
 *
 * On failure, `error` names the cause Codex printed (e.g. `unexpected status 401 Unauthorized:
 * Incorrect API key provided…`), not just the last lines of its stderr.
 *
 * @param options - the preset's options.
 * @returns the executor.
 * @throws {TypeError} when `sandbox` is not one of {@link CodexSandbox}.
 */
export function codexExecutor(options: CodexExecutorOptions = {}): CommandExecutor {
  const { command, extraArgs, sandbox, fullAuto: _deprecated, ...rest } = options;
  const mode = sandbox ?? "workspace-write";
  if (!CODEX_SANDBOXES.includes(mode)) {
    throw new TypeError(
      `codexExecutor: option \`sandbox\` must be "read-only", "workspace-write" or "danger-full-access", got ${JSON.stringify(mode)}`,
    );
  }
  return new CommandExecutor({
    name: "codex",
    ...rest,
    parse: rest.parse ?? parseCodexRun,
    command: command ?? "codex",
    args: ["exec", "--sandbox", mode, "-c", 'approval_policy="never"', ...(extraArgs ?? [])],
    promptVia: "argument",
    promptArgument: (prompt, args) => [...args, "--", prompt],
  });
}

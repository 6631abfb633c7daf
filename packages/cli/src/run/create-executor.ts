import { ClaudeExecutor } from "@loop/claude";
import type { ExecutionRequest, Executor } from "@loop/core";
import {
  aiderExecutor,
  ampExecutor,
  CommandExecutor,
  type CommandLine,
  codexExecutor,
  geminiExecutor,
  type OutputLine,
} from "@loop/exec";
import { split } from "shlex";
import { errorMessage } from "../error-message.js";
import { UsageError } from "../usage-error.js";
import { projectProgress } from "./project-progress.js";
import type { ExecutorName } from "./run-options.js";

/**
 * How to install each agent's CLI, for the error when its executable is not found. Amp's package
 * is `@ampcode/cli` now (`@sourcegraph/amp` was renamed).
 */
export const AGENT_INSTALL_HINTS: Readonly<Record<Exclude<ExecutorName, "command">, string>> = {
  claude: "npm install -g @anthropic-ai/claude-code",
  codex: "npm install -g @openai/codex",
  gemini: "npm install -g @google/gemini-cli",
  aider: "python -m pip install aider-install && aider-install",
  amp: "npm install -g @ampcode/cli (formerly @sourcegraph/amp)",
};

/** How `loop run` builds its executor. */
export interface ExecutorSettings {
  /** Which agent. */
  readonly name: ExecutorName;
  /** `--cmd`: the command line of `--executor command`, split like a POSIX shell would. */
  readonly cmd?: string | undefined;
  /** `--bin`: the agent's executable, instead of its name on `PATH`. */
  readonly bin?: string | undefined;
  /** `--prompt-via` of `--executor command`: `stdin` (default) or `argument`. */
  readonly promptVia?: string | undefined;
  /** Arguments after `--`, passed to the agent as they are. */
  readonly extraArgs: readonly string[];
  /** The project folder: the agent's working directory and the repository git progress reads. */
  readonly cwd: string;
  /**
   * What the loop itself writes (state, logs, `status.json`), absolute or relative to `cwd`:
   * never counted as the agent's progress.
   */
  readonly ownFiles?: readonly string[] | undefined;
  /** `--permission-mode` (Claude Code). */
  readonly permissionMode?: string | undefined;
  /** `--dangerously-skip-permissions` (Claude Code), only when given. */
  readonly skipPermissions: boolean;
  /** Every output line of the agent, for `--json` and live displays. */
  readonly onLine?: ((line: OutputLine) => void) | undefined;
}

/** An executor that can also show the process it starts (for `--dry-run`). */
export type CliExecutor = Executor & {
  commandLine(request: Pick<ExecutionRequest, "prompt" | "sessionId">): CommandLine;
};

function commandExecutor(settings: ExecutorSettings): CommandExecutor {
  if (settings.cmd === undefined || settings.cmd.trim() === "") {
    throw new UsageError(
      'loop run: --executor command needs --cmd "<command line>", e.g. --cmd "my-agent --yes".',
    );
  }
  let words: string[];
  try {
    words = split(settings.cmd);
  } catch (error) {
    const reason = errorMessage(error);
    throw new UsageError(
      `loop run: --cmd ${JSON.stringify(settings.cmd)} cannot be split: ${reason}.`,
    );
  }
  const [command, ...args] = words;
  if (command === undefined) throw new UsageError("loop run: --cmd is empty.");
  const promptVia = settings.promptVia ?? "stdin";
  if (promptVia !== "stdin" && promptVia !== "argument") {
    throw new UsageError(
      `loop run: --prompt-via must be stdin or argument, got ${JSON.stringify(promptVia)}.`,
    );
  }
  return new CommandExecutor({
    command: settings.bin ?? command,
    args: [...args, ...settings.extraArgs],
    promptVia,
    cwd: settings.cwd,
    onLine: settings.onLine,
    progress: projectProgress(settings.cwd, settings.ownFiles ?? []),
  });
}

/**
 * The executor `loop run --executor <name>` runs: Claude Code (default), a preset (Codex,
 * Gemini CLI, Aider, Amp) or any command. Each runs in the project folder, never through a
 * shell, with its progress measured in the project folder (see `projectProgress`).
 *
 * @throws {UsageError} for `command` without a usable `--cmd`, or options the agent does not take.
 */
export function createExecutor(settings: ExecutorSettings): CliExecutor {
  const common = {
    cwd: settings.cwd,
    onLine: settings.onLine,
    progress: projectProgress(settings.cwd, settings.ownFiles ?? []),
  };
  if (
    settings.name !== "claude" &&
    (settings.permissionMode !== undefined || settings.skipPermissions)
  ) {
    throw new UsageError(
      "loop run: --permission-mode and --dangerously-skip-permissions are Claude Code options; pass other agents' flags after --.",
    );
  }
  if (
    settings.name !== "command" &&
    (settings.cmd !== undefined || settings.promptVia !== undefined)
  ) {
    throw new UsageError("loop run: --cmd and --prompt-via go with --executor command.");
  }
  const preset = { ...common, command: settings.bin, extraArgs: settings.extraArgs };
  switch (settings.name) {
    case "claude":
      return new ClaudeExecutor({
        ...common,
        bin: settings.bin,
        permissionMode: settings.permissionMode,
        skipPermissions: settings.skipPermissions,
        extraArgs: settings.extraArgs,
      });
    case "codex":
      return codexExecutor(preset);
    case "gemini":
      return geminiExecutor(preset);
    case "aider":
      return aiderExecutor(preset);
    case "amp":
      return ampExecutor(preset);
    case "command":
      return commandExecutor(settings);
  }
}

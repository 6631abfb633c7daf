import { CommandExecutor } from "./command-executor.js";
import { parseGeminiRun } from "./gemini-output.js";
import type { PresetOptions } from "./preset-options.js";

/**
 * Which tool calls the Gemini CLI runs without asking (`--approval-mode`). A headless run cannot
 * ask, so a tool that would need approval is not offered to the model at all:
 *
 * - `"default"`: only read-only tools; `write_file`, `replace` and `run_shell_command` are left
 *   out, so the agent cannot change anything.
 * - `"auto_edit"`: file edits (`write_file`, `replace`) run; shell commands are left out, so the
 *   agent cannot run the tests.
 * - `"yolo"`: every tool call runs, shell commands included.
 */
export type GeminiApprovalMode = "default" | "auto_edit" | "yolo";

/** Options of {@link geminiExecutor}. */
export type GeminiExecutorOptions = PresetOptions & {
  /**
   * `--approval-mode`. Default: `"yolo"`, because an agent in a loop must edit files and run the
   * tests, and in a headless run anything less takes those tools away. `"yolo"` runs every shell
   * command the model asks for, unreviewed: run the loop in a checkout you can throw away, or add
   * `--sandbox` with `extraArgs`. `"auto_edit"` edits files but runs no command. When `extraArgs`
   * already choose a mode (`--approval-mode`, `--yolo`, `-y`), they win and this flag is left
   * out: the CLI refuses a second one.
   */
  readonly approvalMode?: GeminiApprovalMode | undefined;
  /**
   * Trusts the working folder for each run with `--skip-trust`, without writing
   * `~/.gemini/trustedFolders.json`. A headless `gemini` exits with code 55 in a folder it does not
   * trust. Trusting a folder lets the CLI load what the folder configures (`.gemini/settings.json`,
   * `.env`, MCP servers, commands): point the loop only at projects you trust. Default: `true`.
   * `false` leaves the decision to the user's trusted folders or `GEMINI_CLI_TRUST_WORKSPACE=true`.
   */
  readonly trustWorkspace?: boolean | undefined;
};

const APPROVAL_MODES: readonly GeminiApprovalMode[] = ["default", "auto_edit", "yolo"];

/** The approval mode `args` choose themselves, if they do. */
function approvalModeIn(args: readonly string[]): string | undefined {
  let chosen: string | undefined;
  args.forEach((arg, index) => {
    if (arg === "--yolo" || arg === "-y") chosen = "yolo";
    else if (arg === "--approval-mode") chosen = args[index + 1] ?? "";
    else if (arg.startsWith("--approval-mode=")) chosen = arg.slice("--approval-mode=".length);
  });
  return chosen;
}

/**
 * Google Gemini CLI, headless:
 * `gemini [--approval-mode <mode>] [--skip-trust] [...extraArgs]`, the prompt on standard input.
 *
 * Standard input, not `-p <prompt>`: the CLI's parser reads a prompt that starts with `-` (such as
 * markdown front matter, `---`) as a flag and exits, and standard input is never parsed. The CLI
 * exits 0 even when the model called a tool the approval mode left out, so the result is
 * `success: false` then, with an `error` naming the tool and the approval mode to use; an
 * untrusted folder (exit 55) and Gemini API errors get a readable `error` too.
 *
 * @param options - the preset's options.
 * @returns the executor.
 * @throws {TypeError} when `approvalMode` is not one of {@link GeminiApprovalMode}.
 */
export function geminiExecutor(options: GeminiExecutorOptions = {}): CommandExecutor {
  const {
    command,
    extraArgs,
    parse,
    approvalMode = "yolo",
    trustWorkspace = true,
    ...rest
  } = options;
  if (!APPROVAL_MODES.includes(approvalMode)) {
    throw new TypeError(
      `geminiExecutor: option \`approvalMode\` must be "default", "auto_edit" or "yolo", got ${JSON.stringify(approvalMode)}`,
    );
  }
  const extra = extraArgs ?? [];
  const chosenByArgs = approvalModeIn(extra);
  const effectiveMode = chosenByArgs ?? approvalMode;
  return new CommandExecutor({
    name: "gemini",
    ...rest,
    parse: parse ?? ((run) => parseGeminiRun(run, effectiveMode)),
    command: command ?? "gemini",
    args: [
      ...(chosenByArgs === undefined ? ["--approval-mode", approvalMode] : []),
      ...(trustWorkspace ? ["--skip-trust"] : []),
      ...extra,
    ],
    promptVia: "stdin",
  });
}

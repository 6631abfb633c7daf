import type { ExecutionResult } from "@loop/core";
import { describeProcessEnd } from "./command-executor.js";
import type { CommandRun } from "./command-run.js";
import { meaningfulLines } from "./stderr-lines.js";

// How a headless Gemini CLI (0.61.0) run reports trouble, in text output mode:
// - An untrusted folder: exit 55, "Gemini CLI is not running in a trusted directory. ..." on stderr.
// - A tool the approval mode left out: exit 0 (!), and on stderr
//   `Error executing tool write_file: Tool "write_file" not found. Did you mean one of: ...`.
// - A Gemini API error: exit 1, and on stderr `Error when talking to Gemini API Full report
//   available at: <file> <ErrorName>: <message or the API's JSON error>`, then a stack trace and
//   "An unexpected critical error occurred:[object Object]".
// Colours (ANSI escapes) are on unless NO_COLOR is set.

/** The exit code of a headless Gemini CLI run in a folder it does not trust. */
const GEMINI_UNTRUSTED_FOLDER_EXIT_CODE = 55;

/** The tools an approval mode can leave out of a headless run, and the modes that offer them. */
const GATED_TOOLS: Readonly<Record<string, string>> = {
  write_file: '"auto_edit" (file edits) or "yolo" (edits and shell commands)',
  replace: '"auto_edit" (file edits) or "yolo" (edits and shell commands)',
  run_shell_command: '"yolo"',
};

const EXIT_CODE_MEANINGS: Readonly<Record<number, string>> = {
  41: "authentication error",
  42: "input error",
  52: "configuration error",
  130: "cancelled",
};

/** Lines of stderr that say nothing about a failure. */
const NOISE = [
  /^\s+at /,
  /^YOLO mode is enabled/,
  /^Warning: 256-color support not detected/,
  /^Ripgrep is not available/,
  /^\[STARTUP\]/,
  /^An unexpected critical error occurred:\[object Object\]$/,
];

/**
 * The result of a finished Gemini CLI run: the stdout tail is the output; `success` is false,
 * with an `error` saying why and what to do, for an untrusted folder (exit 55), a Gemini API error,
 * a call of an edit or shell tool that `approvalMode` left out (the CLI still exits 0), or any
 * other non-zero exit.
 *
 * @param run - the finished run.
 * @param approvalMode - the approval mode the run had (`default`, `auto_edit`, `yolo`), for the
 *   advice on a missing tool.
 * @returns the result.
 */
export function parseGeminiRun(run: CommandRun, approvalMode: string): ExecutionResult {
  const stderr = withoutAnsi(run.stderr);
  const error = describeFailure(run, stderr, approvalMode);
  return { output: run.stdout, success: error === undefined, error };
}

function describeFailure(
  run: CommandRun,
  stderr: string,
  approvalMode: string,
): string | undefined {
  const untrusted = /^.*not running in a trusted directory.*$/m.exec(stderr);
  if (run.exitCode === GEMINI_UNTRUSTED_FOLDER_EXIT_CODE || untrusted !== null) {
    return (
      "gemini does not trust the working folder, and a headless run stops there (exit 55). " +
      "Let the preset trust it for each run (`trustWorkspace: true`, the default, passes " +
      "--skip-trust), set GEMINI_CLI_TRUST_WORKSPACE=true, or trust the folder once in an " +
      `interactive gemini session. gemini said: ${untrusted?.[0].trim() ?? lastLines(stderr)}`
    );
  }
  if (run.exitCode !== 0 && run.exitCode !== null) {
    const apiError = describeApiError(stderr);
    if (apiError !== undefined) return `gemini: the Gemini API refused the request: ${apiError}`;
  }
  const missingTool = /Tool "([^"]+)" not found/.exec(stderr);
  const tool = missingTool?.[1];
  if (tool !== undefined && GATED_TOOLS[tool] !== undefined) {
    return (
      `gemini's model called ${tool}, which approval mode "${approvalMode}" leaves out of a ` +
      `headless run, so nothing it needed was done (gemini said: ${missingTool?.[0]}). ` +
      `Use approvalMode ${GATED_TOOLS[tool]}.`
    );
  }
  if (run.exitCode === 0) return undefined;
  const how = `${describeProcessEnd(run)}${run.signal === null ? meaning(run.exitCode) : ""}`;
  const said = lastLines(stderr);
  return said === "" ? `gemini ${how}` : `gemini ${how}: ${said}`;
}

/** `400 INVALID_ARGUMENT: API key not valid.` from the CLI's report line, if there is one. */
function describeApiError(stderr: string): string | undefined {
  const line = /Error when talking to Gemini API(?: Full report available at: \S+)?\s+(.*)$/m.exec(
    stderr,
  );
  if (line?.[1] === undefined) return undefined;
  const [, name, detail] = /^(\w+): ([\s\S]*)$/.exec(line[1].trim()) ?? [undefined, "", line[1]];
  const json = parseApiErrorJson(detail ?? "");
  if (json !== undefined) return json;
  const status = /^\s+status: (\d+),?$/m.exec(stderr.slice(line.index))?.[1];
  const kind = name === "" || name === undefined ? "" : ` (${name})`;
  return `${status ?? "error"}${kind}: ${detail?.trim() ?? ""}`;
}

function parseApiErrorJson(text: string): string | undefined {
  let parsed: { error?: { code?: unknown; message?: unknown; status?: unknown } };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    return undefined;
  }
  const error = parsed.error;
  if (typeof error?.message !== "string") return undefined;
  const label = [error.code, error.status]
    .filter((part) => typeof part === "number" || typeof part === "string")
    .join(" ");
  return label === "" ? error.message : `${label}: ${error.message}`;
}

function meaning(exitCode: number | null): string {
  const text = exitCode === null ? undefined : EXIT_CODE_MEANINGS[exitCode];
  return text === undefined ? "" : ` (${text})`;
}

/** The last three lines of stderr that say something. */
function lastLines(stderr: string): string {
  return meaningfulLines(stderr, NOISE, 3);
}

function withoutAnsi(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes start with ESC.
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
}

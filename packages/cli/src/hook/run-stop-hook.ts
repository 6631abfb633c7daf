import {
  handleStopHook,
  readStopHookBlockCap,
  STOP_HOOK_BLOCK_CAP_VARIABLE,
  type StopHookInput,
  type StopHookResult,
  toHookOutput,
} from "@loop/claude";
import { type OptionSpec, parseCommandArgs } from "../args.js";
import type { CliIo } from "../cli-io.js";
import { errorMessage } from "../error-message.js";
import { CLI_EXIT_CODES } from "../exit-codes.js";
import { PROJECT_OPTIONS, withLoopProject } from "../project.js";
import { UsageError } from "../usage-error.js";
import { HOOK_FILES } from "./hook-files.js";
import { hookUsageExitCode } from "./hook-usage-exit-code.js";
import { parseStopHookInput } from "./parse-stop-hook-input.js";
import { readAllText } from "./read-all-text.js";

/** The options of `loop hook stop`. */
export const STOP_HOOK_OPTIONS = {
  config: PROJECT_OPTIONS.config,
  "state-dir": PROJECT_OPTIONS["state-dir"],
} as const satisfies OptionSpec;

type OptionValues = Readonly<Record<string, string | boolean | undefined>>;

/**
 * The project folder of a stop: `CLAUDE_PROJECT_DIR`, which Claude Code sets for hook commands
 * to the project's root, else the input's `cwd` (which follows the agent's `cd`, so it may be a
 * subfolder).
 */
function projectFolder(input: StopHookInput, io: CliIo): string {
  const root = io.env.CLAUDE_PROJECT_DIR;
  return root !== undefined && root.trim() !== "" ? root : input.cwd;
}

/** Decides one stop; throws what goes wrong (an invalid config, an unwritable state file). */
async function decide(
  input: StopHookInput,
  values: OptionValues,
  io: CliIo,
): Promise<StopHookResult> {
  return withLoopProject(
    "hook stop",
    { ...io, cwd: input.cwd },
    values,
    async (project, config) => {
      return handleStopHook(input, {
        ...HOOK_FILES,
        config,
        lookbackTurns: config.verification.lookback_turns,
        stateStore: project.store,
        // Claude Code gives its hooks its environment, `env` of its settings included.
        blockCap: readStopHookBlockCap(io.env[STOP_HOOK_BLOCK_CAP_VARIABLE]),
      });
    },
  );
}

function allowing(io: CliIo, message: string): number {
  io.stderr.write(`loop hook stop: ${message}\nloop hook stop: allowing the stop.\n`);
  return CLI_EXIT_CODES.complete;
}

/**
 * `loop hook stop`: the ralph loop's Claude Code Stop hook. Reads the hook's JSON on stdin,
 * decides with `handleStopHook` (the project's config, node's file system, a `FileStateStore`
 * so attempts and streaks persist across stops) and writes `toHookOutput(result)` to stdout:
 * `{"decision":"block","reason":…}` to keep the session going, nothing to let it stop.
 *
 * It exits 0 whatever it decides, and also when it cannot decide (no or invalid input, an
 * invalid config, a file error): the reason goes to stderr and the session is allowed to stop,
 * so a broken hook never traps the user's session. It never exits 2, which Claude Code reads as
 * "block the stop". Only a wrong command line exits non-zero (see {@link hookUsageExitCode}).
 *
 * @param args - the arguments after `hook stop`.
 * @param io - the streams, environment and folder.
 * @returns the exit code.
 */
export async function runStopHook(args: readonly string[], io: CliIo): Promise<number> {
  let values: OptionValues;
  try {
    values = parseCommandArgs("hook stop", args, STOP_HOOK_OPTIONS, 0).values;
  } catch (error) {
    if (!UsageError.isInstance(error)) throw error;
    io.stderr.write(`${error.message}\n`);
    return hookUsageExitCode(io);
  }
  if (io.stdin.isTTY === true) {
    io.stderr.write(
      "loop hook stop: Claude Code runs this as its Stop hook and passes the hook's JSON on stdin; to try it, pipe one in:\n" +
        `  echo '{"session_id":"…","cwd":"${io.cwd}","hook_event_name":"Stop"}' | loop hook stop\n`,
    );
    return CLI_EXIT_CODES.usage;
  }
  const parsed = parseStopHookInput(await readAllText(io.stdin));
  if (!parsed.ok) return allowing(io, parsed.problem);
  const input = { ...parsed.input, cwd: projectFolder(parsed.input, io) };
  let result: StopHookResult;
  try {
    result = await decide(input, values, io);
  } catch (error) {
    return allowing(io, errorMessage(error));
  }
  const output = toHookOutput(result);
  if (output !== "") io.stdout.write(`${output}\n`);
  if (result.stderr !== undefined) io.stderr.write(`${result.stderr}\n`);
  return CLI_EXIT_CODES.complete;
}

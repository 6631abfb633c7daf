import type { CliIo } from "../cli-io.js";
import { CLI_EXIT_CODES } from "../exit-codes.js";

/**
 * The exit code of a wrong `loop hook …` command line. From a terminal it is `usage` (2), as
 * for every command. When standard input is not a terminal the command is most likely run by
 * Claude Code as a hook, and there 2 means "blocking error": for a Stop hook, Claude Code
 * refuses the stop and feeds stderr to Claude, so a misregistered hook would trap the session
 * in a loop. It is then `error` (1): a non-blocking error Claude Code shows the user, and the
 * session stops.
 *
 * @param io - the command's streams.
 */
export function hookUsageExitCode(io: CliIo): number {
  return io.stdin.isTTY === true ? CLI_EXIT_CODES.usage : CLI_EXIT_CODES.error;
}

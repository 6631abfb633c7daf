import { LoopError } from "@loop/core";
import type { CliIo } from "./cli-io.js";
import { CLI_EXIT_CODES } from "./exit-codes.js";
import { describeFileError } from "./file-error.js";
import { UsageError } from "./usage-error.js";

/** Whether `error` is a Node.js system error (`ENOENT`, `EACCES`, `EISDIR`…). */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string";
}

/** `message` prefixed with `loop <command>: `, unless it already names the command. */
function prefixed(command: string, message: string): string {
  const prefix = `loop ${command}:`;
  return message.startsWith(prefix) ? message : `${prefix} ${message}`;
}

/**
 * Runs a command's body and turns the errors a user can fix into a message and an exit code:
 * - a {@link UsageError} (a wrong command line): its message on stderr, exit code `usage` (2);
 * - any other `LoopError` (an invalid plan or config, a missing file, a state error) or a
 *   Node.js system error (`EACCES`, `ENOSPC`…): `loop <command>: <message>` on stderr, exit
 *   code `error` (1).
 *
 * Anything else is a bug and is thrown on, with its stack.
 *
 * @param command - the command's name, for messages (`run`, `status`…).
 * @param io - where the message is written.
 * @param body - the command's work; resolves to its exit code.
 * @returns the body's exit code, or the code of the error it threw.
 *
 * @example
 * ```ts
 * run: (args, io) =>
 *   withCommandErrors("status", io, async () => {
 *     const { values } = parseCommandArgs("status", args, OPTIONS, 0);
 *     return CLI_EXIT_CODES.complete;
 *   }),
 * ```
 */
export async function withCommandErrors(
  command: string,
  io: CliIo,
  body: () => Promise<number>,
): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (UsageError.isInstance(error)) {
      io.stderr.write(`${error.message}\n`);
      return CLI_EXIT_CODES.usage;
    }
    if (LoopError.isInstance(error)) {
      io.stderr.write(`${prefixed(command, error.message)}\n`);
      return CLI_EXIT_CODES.error;
    }
    if (isSystemError(error)) {
      // `<path>: permission denied`, not `EACCES: permission denied, open '<path>'`.
      const where = typeof error.path === "string" ? `${error.path}: ` : "";
      io.stderr.write(`${prefixed(command, `${where}${describeFileError(error)}`)}\n`);
      return CLI_EXIT_CODES.error;
    }
    throw error;
  }
}

import { DEFAULT_RESET_PARTS, type LoopConfig } from "@loop/core";
import type { CliIo } from "../cli-io.js";
import { summarizeReset } from "../format/reset-summary.js";
import type { Project } from "../project.js";
import { UsageError } from "../usage-error.js";
import { resetTerminal } from "./reset-terminal.js";

/**
 * `loop run --reset`: before the loop starts, resets the terminal's state as `loop reset` does
 * (every part but the cost), under the same lock, and says what it reset on stderr (unless
 * `--json`). Does nothing without `--reset`.
 *
 * @param values - `loop run`'s parsed options.
 * @param project - the project and terminal.
 * @param config - the project's config.
 * @param io - the CLI's streams.
 * @throws {UsageError} for `--reset` with `--dry-run`, which writes nothing.
 * @throws {LoopError} when a loop runs on the terminal.
 */
export async function resetBeforeRun(
  values: Readonly<Record<string, string | boolean | undefined>>,
  project: Project,
  config: LoopConfig,
  io: CliIo,
): Promise<void> {
  if (values.reset !== true) return;
  if (values["dry-run"] === true) {
    throw new UsageError(
      "loop run: --reset writes the state and --dry-run writes nothing; run `loop reset`, then `loop run --dry-run`.",
    );
  }
  const quiet = values.json === true;
  const warn = (message: string) => io.stderr.write(`loop run: ${message}\n`);
  const reset = await resetTerminal(project, config, {
    parts: DEFAULT_RESET_PARTS,
    now: Date.now(),
    warn,
  });
  if (quiet) return;
  io.stderr.write(
    reset === null ? "reset: nothing to reset yet\n" : `reset: ${summarizeReset(reset)}\n`,
  );
}

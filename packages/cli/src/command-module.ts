import type { CliIo } from "./cli-io.js";

/** One `loop` command, loaded only when it runs. */
export interface CommandModule {
  /** The command's full `--help` text: usage, options and examples. */
  readonly help: string;
  /**
   * Runs the command.
   *
   * @param args - the arguments after the command's name.
   * @param io - the streams, environment and folder.
   * @returns the exit code (`CLI_EXIT_CODES`).
   */
  run(args: readonly string[], io: CliIo): Promise<number>;
}

/** An entry of the command table: what `loop --help` lists, and how to load the command. */
export interface CommandEntry {
  /** One line for `loop --help`. */
  readonly summary: string;
  /** Loads the command's module. */
  readonly load: () => Promise<CommandModule>;
}

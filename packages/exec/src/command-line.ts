/** A process as an executor starts it: never through a shell. */
export interface CommandLine {
  /** The executable, as given (looked up on `PATH` when it has no slash). */
  readonly command: string;
  /** Every argument, one element each, as the process receives them. */
  readonly args: readonly string[];
  /** What is written to standard input; `null` when it is closed. */
  readonly stdin: string | null;
}

/** Where a command writes: a stream, or anything with `write` (tests collect text). */
export interface CliOutput {
  /** Writes text as it is; no newline is added. */
  write(text: string): unknown;
  /** Whether it is a terminal: the progress display and colours are for terminals only. */
  readonly isTTY?: boolean | undefined;
  /** The terminal's width in columns, when it is one. */
  readonly columns?: number | undefined;
}

/** What a command reads and writes: the process's streams, environment and folder, or a test's. */
export interface CliIo {
  /** Results and machine-readable output. */
  readonly stdout: CliOutput;
  /** Progress, warnings and errors. */
  readonly stderr: CliOutput;
  /** Standard input (`loop hook stop` reads the hook's JSON; `loop monitor` reads keys). */
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean | undefined };
  /** The environment variables (`NO_COLOR`, `LOOP_TERMINAL_ID`, `LOOP_STATE_DIR`, `HOME`…). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The folder relative paths are resolved from. */
  readonly cwd: string;
}

/** The running process's streams, environment and folder. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
  };
}

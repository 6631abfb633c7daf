import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
/** Where a command writes: a stream, or anything with `write` (tests collect text). */
export interface CliOutput {
  /** Writes text as it is; no newline is added. */
  write(text: string): unknown;
  /** Whether it is a terminal: the progress display and colours are for terminals only. */
  readonly isTTY?: boolean | undefined;
  /** The terminal's width in columns, when it is one. */
  readonly columns?: number | undefined;
  /**
   * Fires when the program reading this output has gone (a write met a closed pipe, as in
   * `loop run --json | head -1`). Absent when it cannot be told.
   */
  readonly readerGone?: AbortSignal | undefined;
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
  /**
   * How to run this CLI again from another program's shell — the Node.js binary and the entry
   * script, absolute — for commands that write a command line (`loop init --hook install`). The
   * `loop` binary sets it; absent when `runCli` is embedded.
   */
  readonly command?: readonly string[] | undefined;
}

/** Options of {@link processIo}. */
export interface ProcessIoOptions {
  /**
   * The URL of the script that runs the CLI (the binary's `import.meta.url`): with it, `command`
   * is this Node.js binary and that script (symlinks resolved), for commands that write a
   * command line that runs the CLI again.
   */
  readonly entry?: string | undefined;
}

/**
 * Whether `error` is a write to a closed pipe (`loop run --json | head`), or to a terminal that
 * was closed (EIO, after its SIGHUP).
 */
function isClosedPipe(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === "EPIPE" || code === "EIO";
}

/**
 * A process stream as a {@link CliOutput} that never crashes the process on a closed pipe:
 * output to it is dropped, and its `readerGone` signal fires for the command to decide.
 */
function pipedOutput(stream: NodeJS.WriteStream): CliOutput {
  const gone = new AbortController();
  stream.on("error", (error) => {
    if (!isClosedPipe(error)) throw error;
    gone.abort();
  });
  return Object.assign(stream, { readerGone: gone.signal });
}

/**
 * The running process's streams, environment and folder. Writing to a closed pipe (`| head`)
 * drops the output instead of crashing, and fires the stream's `readerGone` signal (`loop run`
 * then stops as on Ctrl+C, saving its state).
 */
export function processIo(options?: ProcessIoOptions | null): CliIo {
  const entry = options?.entry;
  return {
    stdout: pipedOutput(process.stdout),
    stderr: pipedOutput(process.stderr),
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    ...(entry === undefined
      ? {}
      : { command: [process.execPath, realpathSync(fileURLToPath(entry))] }),
  };
}

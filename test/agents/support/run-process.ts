import { type ProcessRun, runProcess as runToExit } from "../../support/run-process.js";

export type { ProcessRun };

/** Options of {@link runProcess}. */
export interface RunProcessOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Killed (SIGKILL, whole group) after this long: a test's safety net. Default 120 s. */
  readonly timeoutMs?: number;
}

/**
 * Runs a program (an agent CLI, `loop`) without a shell, standard input closed, in a process
 * group of its own, and waits for it to exit. Never rejects for a failed run: the exit code says.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  options: RunProcessOptions,
): Promise<ProcessRun> {
  return runToExit(command, args, {
    cwd: options.cwd,
    env: options.env,
    ownProcessGroup: true,
    timeoutMs: options.timeoutMs ?? 120_000,
  });
}

/** The JSON object lines of a stream-json output. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

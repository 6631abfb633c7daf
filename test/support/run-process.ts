import { spawn } from "node:child_process";

/** What a finished process left. */
export interface ProcessRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link runProcess}. */
export interface RunProcessOptions {
  readonly cwd: string;
  /** The whole environment (a variable set to `undefined` is left out). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Text written to standard input, which is then closed. Default: no standard input at all. */
  readonly input?: string | undefined;
  /**
   * Starts the process in a group of its own and kills the whole group at the timeout, with
   * whatever the process started (an agent's tools). Default: only the process is killed.
   */
  readonly ownProcessGroup?: boolean | undefined;
  /** Killed (SIGKILL) after this long: a test's safety net. */
  readonly timeoutMs: number;
}

/**
 * Runs a program without a shell and waits for it to exit, collecting its output. Never rejects
 * for a failed run (the exit code says), only when the program cannot be started.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  options: RunProcessOptions,
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], {
      cwd: options.cwd,
      env: options.env as NodeJS.ProcessEnv,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      detached: options.ownProcessGroup === true,
    });
    let stdout = "";
    let stderr = "";
    // Both are pipes (the stdio above); TypeScript cannot tell, the choice of stdin being computed.
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      if (options.ownProcessGroup !== true) child.kill("SIGKILL");
      else if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    }, options.timeoutMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

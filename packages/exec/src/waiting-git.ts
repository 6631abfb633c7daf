import { spawn } from "node:child_process";

/**
 * A `git` started ahead of time that waits for its go before it runs: a small shell blocked on
 * a line of its standard input (`read`), which then becomes the git (`exec`). Starting a process
 * from Node blocks the event loop for as long as the system takes to copy Node's address space
 * and start the program (one to two milliseconds for the CLI); a probe that starts its
 * `git status` while the agent runs pays that then, and after the run only git's own work.
 */
export interface WaitingGit {
  /**
   * Lets git run now and resolves with what it wrote to standard output, or `null` when it
   * failed, or when the shell could not be started or was discarded (the caller then runs git
   * itself). Call it once.
   */
  run(): Promise<string | null>;
  /** Ends the shell without running git (its standard input closes: `read` fails). */
  discard(): void;
}

/** The shell's script: git runs only once a whole line arrives (`read` fails at end of input). */
const SCRIPT = 'read -r go || exit 0; exec git "$@"';

/**
 * Starts a {@link WaitingGit} in `cwd` for `git args…`; `null` on Windows, which has no
 * `/bin/sh` to wait in. It keeps the process alive for no one: an unused one ends with the
 * process that started it, whose end closes its standard input.
 *
 * @param cwd - the directory git runs in.
 * @param args - git's arguments.
 * @param env - git's environment.
 */
export function startWaitingGit(
  cwd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): WaitingGit | null {
  if (process.platform === "win32") return null;
  const child = spawn("/bin/sh", ["-c", SCRIPT, "sh", ...args], {
    cwd,
    env,
    stdio: ["pipe", "pipe", "ignore"],
    windowsHide: true,
  });
  let output = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    output += chunk;
  });
  // EPIPE: the shell is gone (discarded, or it could not start).
  child.stdin.on("error", () => undefined);
  const ended = new Promise<string | null>((resolve) => {
    child.on("error", () => resolve(null));
    child.on("close", (code) => resolve(code === 0 ? output : null));
  });
  // While it waits, neither the shell nor its pipes keep the caller's process alive; once it
  // runs, they do, until git is done.
  const handles = [child.stdin, child.stdout] as unknown as { ref?(): void; unref?(): void }[];
  child.unref();
  for (const handle of handles) handle.unref?.();
  let used = false;
  return {
    run() {
      if (used) return Promise.resolve(null);
      used = true;
      child.ref();
      for (const handle of handles) handle.ref?.();
      child.stdin.end("go\n");
      return ended;
    },
    discard() {
      if (used) return;
      used = true;
      child.stdin.end();
    },
  };
}

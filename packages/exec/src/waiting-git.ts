import { startWaitingProcess } from "./waiting-process.js";

/**
 * A `git` started ahead of time that waits for its go before it runs (a
 * {@link startWaitingProcess | waiting process}): a probe that starts its `git status` while
 * the agent runs pays the cost of starting a process then, and after the run only git's own
 * work.
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

/**
 * Starts a {@link WaitingGit} in `cwd` for `git args…`; `null` on Windows, which has no
 * `/bin/sh` to wait in. An unused one ends with the process that started it.
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
  const waiting = startWaitingProcess("git", args, { cwd, env, output: ["pipe", "ignore"] });
  if (waiting === null) return null;
  const { child } = waiting;
  let output = "";
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (chunk: string) => {
    output += chunk;
  });
  const ended = new Promise<string | null>((resolve) => {
    child.on("error", () => resolve(null));
    child.on("close", (code) => resolve(code === 0 ? output : null));
  });
  let used = false;
  return {
    run() {
      if (used) return Promise.resolve(null);
      used = true;
      // Whether the shell had its go shows in git's end (the shell's, when it had none).
      void waiting.go();
      child.stdin?.end();
      return ended;
    },
    discard() {
      used = true;
      waiting.discard();
    },
  };
}

import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { signalProcessGroup } from "./process-group.js";

/**
 * A process started ahead of time that waits for its go before it becomes the program: a small
 * shell blocked on a line of its standard input (`read`), which then `exec`s the program in its
 * place — same process id, same process group, same standard streams. Starting a process from
 * Node blocks the event loop for as long as the system takes to copy Node's address space (one
 * to two milliseconds for the CLI); a process started while Node waits anyway (on a child, on a
 * disk flush) costs nothing when it is needed.
 *
 * The shell reads its standard input a byte at a time, so whatever follows the go line (an
 * agent's prompt) is left for the program. Before the `exec` it sets `PWD` back to the value the
 * environment had, or unsets it when the environment had none (a POSIX shell sets it to the
 * working directory as it starts), and says it has its go on a fourth descriptor, which the
 * program does not get: a shell killed as it waited is told apart from a program that ran.
 */
export interface WaitingProcess {
  /** The child: the shell while it waits, the program once it has its go. */
  readonly child: ChildProcess;
  /** Whether it still waits: neither given its go, nor discarded, nor ended. */
  readonly waiting: boolean;
  /**
   * Lets the program run now: from here on the child (and its pipes) keep this process alive
   * again, as any child does. Resolves with the child once the shell has its go and `exec`s the
   * program, or with `null` when the shell had ended before (killed as it waited: this process
   * may not have seen its end yet) or `signal` fired first (the shell, or what it became, is
   * then killed): the program never ran, or is ended. Call it once.
   *
   * @param signal - gives up the wait.
   */
  go(signal?: AbortSignal): Promise<ChildProcess | null>;
  /** Ends the shell without running the program (its standard input closes: `read` fails). */
  discard(): void;
}

/** The options of {@link startWaitingProcess}. */
export interface WaitingProcessOptions {
  /** The shell that waits (it must be a POSIX shell). Default: `/bin/sh`. */
  readonly shell?: string | undefined;
  /** The program's working directory. */
  readonly cwd?: string | undefined;
  /** The program's complete environment (entries whose value is `undefined` are left out). */
  readonly env: NodeJS.ProcessEnv;
  /** Whether the child leads its own process group (and session), as `spawn`'s `detached`. */
  readonly detached?: boolean | undefined;
  /** Standard output and standard error: piped, or ignored. Standard input is always a pipe. */
  readonly output: readonly ["pipe" | "ignore", "pipe" | "ignore"];
}

/**
 * The shell's script: nothing runs until a whole line arrives (`read` fails at the end of its
 * input, and the shell exits), then the shell says so on descriptor 3, `PWD` is put back as the
 * environment had it, and the program replaces the shell with descriptor 3 closed. `$1`/`$2`
 * say whether `PWD` was set and to what; the program and its arguments follow.
 */
const SCRIPT =
  'read -r go || exit 0; echo >&3; if [ "$1" = 1 ]; then export PWD="$2"; else unset PWD; fi; shift 2; exec "$@" 3>&-';

/**
 * Starts `command args…` waiting (see {@link WaitingProcess}); `null` on Windows, which has no
 * POSIX shell to wait in. While it waits, neither the shell nor its pipes keep this process
 * alive: an unused one ends with the process that started it, whose end closes its standard
 * input.
 *
 * @param command - the program, looked up on the environment's `PATH` as `spawn` does.
 * @param args - its arguments.
 * @param options - where and how it runs.
 */
export function startWaitingProcess(
  command: string,
  args: readonly string[],
  options: WaitingProcessOptions,
): WaitingProcess | null {
  if (process.platform === "win32") return null;
  const pwd = options.env.PWD;
  const spawnOptions: SpawnOptions = {
    cwd: options.cwd,
    env: options.env,
    detached: options.detached ?? false,
    stdio: ["pipe", ...options.output, "pipe"],
    windowsHide: true,
  };
  const child = spawn(
    options.shell ?? "/bin/sh",
    ["-c", SCRIPT, "sh", pwd === undefined ? "0" : "1", pwd ?? "", command, ...args],
    spawnOptions,
  );
  let ended = false;
  child.once("exit", () => {
    ended = true;
  });
  // EPIPE: the shell is gone (discarded, or it could not start, or it was killed).
  child.stdin?.on("error", () => undefined);
  const told = child.stdio[3] as Readable | null | undefined;
  told?.on("error", () => undefined);
  const handles = [child.stdin, child.stdout, child.stderr, told] as unknown as ({
    ref?(): void;
    unref?(): void;
  } | null)[];
  child.unref();
  for (const handle of handles) handle?.unref?.();
  let used = false;
  return {
    child,
    get waiting() {
      return !used && !ended && child.pid !== undefined;
    },
    go(signal) {
      used = true;
      child.ref();
      for (const handle of handles) handle?.ref?.();
      // A descriptor closed already is a shell that ended before its go (seen since `waiting`
      // was last asked): its end has been told, and will not be again.
      if (told === null || told === undefined || told.closed || child.pid === undefined) {
        return Promise.resolve(null);
      }
      const pid = child.pid;
      child.stdin?.write("go\n");
      return new Promise<ChildProcess | null>((resolve) => {
        const settle = (taken: ChildProcess | null) => {
          signal?.removeEventListener("abort", onAbort);
          told.off("data", onTold);
          told.off("close", onEnd);
          told.destroy();
          resolve(taken);
        };
        // The byte comes before the end of the descriptor (closed by the exec, or by the
        // shell's end): an end alone is a shell that never had its go.
        const onTold = () => settle(child);
        const onEnd = () => settle(null);
        const onAbort = () => {
          if (options.detached === true) signalProcessGroup(pid, "SIGKILL");
          else child.kill("SIGKILL");
          settle(null);
        };
        told.once("data", onTold);
        told.once("close", onEnd);
        if (signal?.aborted) onAbort();
        else signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
    discard() {
      if (used) return;
      used = true;
      child.stdin?.end();
    },
  };
}

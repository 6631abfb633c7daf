import { existsSync } from "node:fs";
import { AGENT_TOKEN_VARIABLE, newAgentToken } from "./agent-survivors.js";
import { processStartOf } from "./process-table.js";
import { startWaitingProcess, type WaitingProcess } from "./waiting-process.js";

/**
 * The shell a next run's process waits in: dash, whose `exec` hands the program the
 * environment it was given (bash lowers `SHLVL` and drops `_`), once `PWD` is put back.
 */
const WAITING_SHELL = "/bin/dash";

/** A name a shell keeps in the environment it passes on (dash drops `a-b=1`, `x.y=2`). */
const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A next run's agent process, started ahead and waiting for its go (`startAhead`). */
export interface NextProcess {
  /** The waiting process. */
  readonly waiting: WaitingProcess;
  /** Its process id, which is also its process group's. */
  readonly pid: number;
  /** Its `processStart` (see `processStartOf`). */
  readonly processStart: string | undefined;
  /** The token in its environment. */
  readonly token: string;
  /** Where it runs. */
  readonly cwd: string | undefined;
  /** Its environment before the token was added. */
  readonly environment: Readonly<Record<string, string | undefined>>;
}

/** What a next process runs, and where. */
export interface NextProcessSettings {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string | undefined;
  /** The environment before the token is added. */
  readonly environment: Readonly<Record<string, string | undefined>>;
}

let shellPresent: boolean | undefined;

/**
 * Starts the next run's process waiting, as `CommandExecutor` starts an agent (its own process
 * group, piped streams, a new token in its environment); `null` where the agent could not get
 * the very process a start at run time gives it: no `/bin/dash` (or Windows), or an
 * environment name a shell would drop.
 *
 * @param settings - the command, its arguments, where and with what environment.
 */
export function startNextProcess(settings: NextProcessSettings): NextProcess | null {
  shellPresent ??= process.platform !== "win32" && existsSync(WAITING_SHELL);
  if (!shellPresent) return null;
  const { environment } = settings;
  const names = Object.keys(environment).filter((name) => environment[name] !== undefined);
  if (!names.every((name) => SHELL_NAME.test(name))) return null;
  const token = newAgentToken();
  const waiting = startWaitingProcess(settings.command, settings.args, {
    shell: WAITING_SHELL,
    cwd: settings.cwd,
    env: { ...environment, [AGENT_TOKEN_VARIABLE]: token },
    detached: true,
    output: ["pipe", "pipe"],
  });
  const pid = waiting?.child.pid;
  if (waiting === null || pid === undefined) {
    waiting?.discard();
    return null;
  }
  return { waiting, pid, processStart: processStartOf(pid), token, cwd: settings.cwd, environment };
}

/**
 * The process started ahead, when a run in `cwd` with `environment` can take it (it still
 * waits, and where and with what it runs are the same); otherwise it is discarded and `null`
 * returned.
 *
 * @param next - the process started ahead, if any.
 * @param cwd - where the run's agent runs.
 * @param environment - its environment before the token is added.
 */
export function takeNextProcess(
  next: NextProcess | null,
  cwd: string | undefined,
  environment: Readonly<Record<string, string | undefined>>,
): NextProcess | null {
  if (next === null) return null;
  if (next.waiting.waiting && next.cwd === cwd && sameEnvironment(next.environment, environment)) {
    return next;
  }
  next.waiting.discard();
  return null;
}

function sameEnvironment(
  a: Readonly<Record<string, string | undefined>>,
  b: Readonly<Record<string, string | undefined>>,
): boolean {
  const names = Object.keys(a).filter((name) => a[name] !== undefined);
  if (names.length !== Object.keys(b).filter((name) => b[name] !== undefined).length) return false;
  return names.every((name) => a[name] === b[name]);
}

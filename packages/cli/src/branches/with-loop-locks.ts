import { realpath } from "node:fs/promises";
import {
  type LoopConfig,
  LoopError,
  planLockId,
  projectLockId,
  type StateLock,
  StateLockedError,
} from "@loop/core";
import type { Project } from "../project.js";

/** The locks a running `loop run` holds here, each with what a refusal names. */
async function wantedLocks(
  project: Project,
  config: LoopConfig,
  planPath: string,
): Promise<{ readonly id: string; readonly what: string }[]> {
  const wanted = [{ id: project.terminalId, what: `on terminal "${project.terminalId}"` }];
  if (!config.plans.allow_per_terminal_plan) {
    // As `loop run` names the project: its real path.
    const root = await realpath(project.cwd).catch(() => project.cwd);
    wanted.push({ id: projectLockId(root), what: `in ${project.cwd}` });
  }
  wanted.push({ id: planLockId(planPath), what: `on ${planPath}` });
  return wanted;
}

/**
 * Runs `body` holding the locks a running loop holds — the terminal's, the project's when its
 * terminals share one plan (`plans.allow_per_terminal_plan: false`), and the plan file's — so
 * kept work never changes under a running loop. A held lock is refused, naming the loop's pid.
 *
 * @param project - the project and terminal.
 * @param config - its config.
 * @param planPath - the plan, absolute, as `loop run` is given it.
 * @param command - what is refused, for the message (`loop branches retry`).
 * @param body - the work done under the locks.
 * @throws {LoopError} when a running loop holds one of the locks.
 */
export async function withLoopLocks<T>(
  project: Project,
  config: LoopConfig,
  planPath: string,
  command: string,
  body: () => Promise<T>,
): Promise<T> {
  const taken: StateLock[] = [];
  try {
    for (const lock of await wantedLocks(project, config, planPath)) {
      try {
        taken.push(await project.store.lock(lock.id));
      } catch (error) {
        if (!StateLockedError.isInstance(error)) throw error;
        const { pid, host, startedAt } = error.holder;
        throw new LoopError({
          message: `a loop is running ${lock.what} (pid ${pid} on ${host}, since ${startedAt}): stop it first (Ctrl+C in its terminal), then ${command}. Kept work never changes under a running loop.`,
          cause: error,
        });
      }
    }
    return await body();
  } finally {
    for (const lock of taken.reverse()) await lock.release().catch(() => undefined);
  }
}

import {
  createDecisionEvent,
  createStateManager,
  formatTimestamp,
  type LoopConfig,
  LoopError,
  type ResetPart,
  resetState,
  type StateLock,
  StateLockedError,
  type StateReset,
  updateMetrics,
} from "@loop/core";
import { errorMessage } from "../error-message.js";
import type { Project } from "../project.js";
import { logOneEvent } from "../store/log-one-event.js";

/** Options of {@link resetTerminal}. */
export interface ResetTerminalOptions {
  /** The parts to reset. */
  readonly parts: readonly ResetPart[];
  /** The current time, epoch milliseconds. */
  readonly now: number;
  /** Told about what failed but did not stop the reset (the decision log, the metrics). */
  readonly warn: (message: string) => void;
}

/** Takes the terminal's lock, or says which running loop holds it. */
async function lockTerminal(project: Project): Promise<StateLock> {
  try {
    return await project.store.lock(project.terminalId);
  } catch (error) {
    if (!StateLockedError.isInstance(error)) throw error;
    const { pid, host, startedAt } = error.holder;
    throw new LoopError({
      message: `a loop is running on terminal "${project.terminalId}" (pid ${pid} on ${host}, since ${startedAt}): stop it first (Ctrl+C in its terminal), then reset. A reset never changes the state under a running loop.`,
      cause: error,
    });
  }
}

/**
 * Resets parts of a terminal's state (see `resetState`) under the lock a running loop holds,
 * so a reset never races a loop: a held lock is refused, naming the holder's pid. The new state
 * is written (the old one becomes the backup), the metrics follow it, and a `state_reset`
 * event goes to the decision log. The plan is never touched.
 *
 * @param project - the project and terminal.
 * @param config - the project's config, for the decision log's path.
 * @param options - the parts, the time, and where warnings go.
 * @returns what the reset did; `null` when the terminal has no state (nothing to reset).
 * @throws {LoopError} when a running loop holds the terminal, or the state cannot be read or
 *   written.
 */
export async function resetTerminal(
  project: Project,
  config: LoopConfig,
  options: ResetTerminalOptions,
): Promise<StateReset | null> {
  const lock = await lockTerminal(project);
  try {
    const manager = createStateManager(project.store);
    const { state, recovery } = await manager.readState(project.terminalId);
    if (recovery !== null) {
      const from = recovery.from === "backup" ? "its backup was reset" : "nothing to reset";
      options.warn(`loop_state.json was unusable (${recovery.problem}); ${from}`);
    }
    if (state === null) return null;
    const now = formatTimestamp(options.now);
    const reset = resetState(state, { parts: options.parts, now });
    await manager.writeState(project.terminalId, reset.state);
    await updateMetrics(
      project.store,
      project.terminalId,
      {
        iterations: reset.state.loop_metadata.iterations,
        tasks_completed: reset.state.completed_tasks.length,
        tasks_failed: reset.state.failed_tasks.length,
        last_update: now,
      },
      { onError: (error) => options.warn(`the metrics are not updated: ${errorMessage(error)}`) },
    );
    const event = createDecisionEvent(
      project.terminalId,
      "state_reset",
      { parts: reset.parts, before: reset.before, after: reset.after },
      now,
    );
    await logOneEvent(project, project.resolve(config.logging.decision_log), event, options.warn);
    return reset;
  } finally {
    await lock.release();
  }
}

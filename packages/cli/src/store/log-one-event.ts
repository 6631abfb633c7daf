import type { DecisionEvent } from "@loop/core";
import { errorMessage } from "../error-message.js";
import type { Project } from "../project.js";

/**
 * Logs one decision event of a command (`state_reset`, `task_retried`) where the project's
 * runs log theirs — its decision log, and the database when the state is there — and waits for
 * it. A failure is a warning, never the command's error.
 *
 * @param project - the project.
 * @param decisionLog - the decision log file, absolute.
 * @param event - the event.
 * @param warn - prints a warning line.
 */
export async function logOneEvent(
  project: Project,
  decisionLog: string,
  event: DecisionEvent,
  warn: (message: string) => void,
): Promise<void> {
  const logger = project.backend.openLogger({
    decisionLog,
    onError: (error) => warn(errorMessage(error)),
  });
  try {
    await logger.log(event);
  } catch (error) {
    warn(`the decision log is not written: ${errorMessage(error)}`);
  }
  await logger.close().catch((error: unknown) => warn(errorMessage(error)));
}

import type { Loop, LoopConfig } from "@loop/core";
import { createIterationLog } from "@loop/fs";
import type { Project } from "../project.js";
import { afterThisTurn } from "./after-this-turn.js";

/** Options of {@link recordIterationLogs}. */
export interface RecordIterationLogsOptions {
  /** The project: its folder (the logs' folder is relative to it) and terminal. */
  readonly project: Project;
  /** Its config: `logging.iteration_logs` and `logging.iteration_logs_keep`. */
  readonly config: LoopConfig;
  /** The current time, epoch milliseconds. */
  readonly now: () => number;
  /** Reports a log that could not be written; the loop goes on. */
  readonly warn: (message: string) => void;
}

/** What an iteration was, from its `iteration-start` event, until it ends. */
interface Started {
  readonly iteration: number;
  readonly kind: "task" | "wrap_up";
  readonly taskId: string | null;
  readonly attempt: number;
  readonly startedAt: number;
}

/**
 * Writes each iteration of `loop` to the project's iteration logs (`createIterationLog`): the
 * start is taken at `iteration-start`, the file written at `iteration-end` with the agent's raw
 * output. A log that cannot be written is a warning, never a failure of the loop.
 *
 * @param loop - the loop, before it runs.
 * @param options - the project, its config, the clock and where warnings go.
 * @returns `flush`, which resolves once every log begun is written (or has failed).
 */
export function recordIterationLogs(
  loop: Loop,
  options: RecordIterationLogsOptions,
): { flush(): Promise<void> } {
  const { project, config, now, warn } = options;
  const log = createIterationLog({
    folder: project.resolve(config.logging.iteration_logs),
    terminalId: project.terminalId,
    keep: config.logging.iteration_logs_keep,
  });
  // By iteration: a parallel run's workers run several at once, ending in any order.
  const started = new Map<number, Started>();
  /** The logs handed on and not yet written. */
  const begun = new Set<Promise<unknown>>();
  loop.on("iteration-start", ({ iteration, kind, task, attempt }) => {
    started.set(iteration, {
      iteration,
      kind,
      taskId: task?.id ?? null,
      attempt,
      startedAt: now(),
    });
  });
  loop.on("iteration-end", ({ iteration, result, tasksCompleted, decision }) => {
    const start: Started = started.get(iteration) ?? {
      iteration,
      kind: "task",
      taskId: null,
      attempt: 1,
      startedAt: now(),
    };
    started.delete(iteration);
    const entry = { ...start, endedAt: now(), result, tasksCompleted, decision };
    // Written while the loop goes on to the next agent ({@link afterThisTurn}).
    const written = afterThisTurn(() => log.write(entry))
      .catch((error: unknown) => warn(`the iteration log is not written: ${String(error)}`))
      .finally(() => begun.delete(written));
    begun.add(written);
  });
  return {
    flush: async () => {
      await Promise.all(begun);
      await log.flush();
    },
  };
}

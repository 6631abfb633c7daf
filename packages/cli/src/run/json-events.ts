import type { Loop, LoopResult } from "@loop/core";
import type { CliOutput } from "../cli-io.js";

/** Writes one JSON object as a line. */
function emit(output: CliOutput, value: Record<string, unknown>): void {
  output.write(`${JSON.stringify(value)}\n`);
}

/**
 * `loop run --json`: every loop event as one JSON line on stdout, `{"type": <event>, …}`:
 * `iteration-start`, `iteration-end` (the result without its output text), `task-complete`,
 * `task-failed`, `wait`, `verification`, `decision` (the decision-log event), `exit`; and last a
 * `result` line (the `LoopResult` without the state document).
 */
export function emitJsonEvents(loop: Loop, output: CliOutput): void {
  loop.on("iteration-start", ({ iteration, task, attempt, kind }) =>
    emit(output, {
      type: "iteration-start",
      iteration,
      kind,
      attempt,
      task: task === null ? null : { id: task.id, title: task.title },
    }),
  );
  loop.on("iteration-end", ({ iteration, result, tasksCompleted, decision }) =>
    emit(output, {
      type: "iteration-end",
      iteration,
      success: result.success,
      error: result.error ?? null,
      costUsd: result.costUsd ?? null,
      tokens: result.tokens ?? null,
      filesChanged: result.filesChanged ?? null,
      tasksCompleted,
      exit: decision.exit,
      reason: decision.reason,
    }),
  );
  loop.on("task-complete", (event) => emit(output, { type: "task-complete", ...event }));
  loop.on("task-failed", (event) => emit(output, { type: "task-failed", ...event }));
  loop.on("wait", (event) =>
    emit(output, { type: "wait", ...event, until: new Date(event.until).toISOString() }),
  );
  loop.on("verification", ({ passed, unmet, concerns }) =>
    emit(output, { type: "verification", passed, unmet, concerns }),
  );
  loop.on("decision", (event) => emit(output, { type: "decision", event }));
  loop.on("exit", (event) => emit(output, { type: "exit", ...event }));
}

/** The `result` line of `loop run --json`. */
export function emitJsonResult(output: CliOutput, result: LoopResult, exitCode: number): void {
  emit(output, {
    type: "result",
    exitReason: result.exitReason,
    complete: result.complete,
    exitCode,
    iterations: result.iterations,
    totalIterations: result.totalIterations,
    tasksCompleted: result.tasksCompleted,
    tasksFailed: result.tasksFailed,
    costUsd: result.costUsd,
    durationMs: result.durationMs,
    error:
      result.error === null ? null : { name: result.error.name, message: result.error.message },
  });
}

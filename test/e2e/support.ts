import {
  type DecisionEvent,
  type ExecutionRequest,
  type ExecutionResult,
  type PlanSource,
  type StateStore,
  updatePlan,
} from "@loop/core";
import type { ScriptedExecutor, ScriptStep } from "@loop/memory";

/**
 * `inner` with its `set` replaced by `set` (which may call `inner`'s): a store whose writes
 * fail, or take their time.
 */
export function withSet(inner: StateStore, set: StateStore["set"]): StateStore {
  const lock = inner.lock?.bind(inner);
  return {
    specificationVersion: "v1",
    get: (terminalId, key, version) => inner.get(terminalId, key, version),
    delete: (terminalId, key) => inner.delete(terminalId, key),
    ...(lock === undefined ? {} : { lock }),
    set,
  };
}

/** Where every end-to-end run starts on its virtual clock. */
export const START = new Date("2026-03-14T10:00:00.000Z");

/** The seed's plan (loop-code's "Example Plan File"), cut down to `ids.length` tasks. */
export function seedPlan(count: number): string {
  const titles = [
    "Design database schema for users table",
    "Implement password hashing utility",
    "Create login endpoint",
    "Write unit tests for auth module",
    "Verify all tests pass and document API",
  ];
  const tasks = titles
    .slice(0, count)
    .map((title, index) => `- [ ] TASK-00${index + 1} ${title}`)
    .join("\n");
  return [
    "# Feature: User Authentication",
    "",
    "## RALPH_STATUS",
    "",
    "- EXIT_SIGNAL: false",
    "- completion_indicators: 0",
    "- current_task: TASK-001",
    "",
    "## Tasks",
    "",
    tasks,
    "",
  ].join("\n");
}

/** A plain task list with `count` tasks, no RALPH_STATUS section. */
export function taskList(count: number): string {
  const lines = ["# Plan", ""];
  for (let index = 1; index <= count; index += 1) {
    lines.push(`- [ ] TASK-00${index} Task number ${index}`);
  }
  return `${lines.join("\n")}\n`;
}

/** What the engine asked the executor, call by call. */
export interface CallSummary {
  readonly task: string | null;
  readonly iteration: number;
  readonly attempt: number;
  readonly kind: ExecutionRequest["kind"];
}

export function callsOf(executor: ScriptedExecutor): CallSummary[] {
  return executor.requests.map((request) => ({
    task: request.task?.id ?? null,
    iteration: request.iteration,
    attempt: request.attempt,
    kind: request.kind,
  }));
}

/** The decision log without timestamps: `[event, payload]` pairs, in order. */
export function logOf(events: readonly DecisionEvent[]): [string, unknown][] {
  return events.map((event) => [event.event, event.payload]);
}

/** The terminal ids of the events (they must all be the loop's). */
export function terminalsOf(events: readonly DecisionEvent[]): string[] {
  return [...new Set(events.map((event) => event.terminal_id))];
}

/** A result without `taskComplete`: the agent edited the plan itself, as the loop-code seed's agent does. */
export function withoutTaskComplete(result: ExecutionResult): ExecutionResult {
  const { taskComplete: _ignored, ...rest } = result;
  return rest;
}

/**
 * An agent that checks its own task's box by editing the plan through `plan` (the loop-code
 * path), then answers `answer` (with its `taskComplete` removed: the agent edited the plan, it
 * does not report the task done).
 */
export function checksItsBox(
  plan: PlanSource,
  answer: ExecutionResult,
  edit: (text: string) => string = (text) => text,
): ScriptStep {
  return async (request) => {
    const id = request.task?.id;
    if (id === undefined) throw new Error("checksItsBox: a wrap-up call has no task");
    const text = await plan.read();
    await plan.write(edit(updatePlan(text, { check: [id] })));
    return withoutTaskComplete(answer);
  };
}

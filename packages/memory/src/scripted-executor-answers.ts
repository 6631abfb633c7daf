import {
  type ExecutionResult,
  TESTS_STATUS_VALUES,
  type TestsStatus,
  WORK_TYPES,
  type WorkType,
} from "@loop/core";
import type { ScriptStep } from "./scripted-executor.js";
import { answerWithStatusBlock } from "./scripted-executor-status-block.js";

/** Options of {@link completesTask} and {@link makesNoProgress}: what the agent's answer says. */
export interface ScriptedAnswerOptions {
  /** The prose before the status block. Default: a sentence fitting the answer. */
  readonly summary?: string | undefined;
  /** The block's `FILES_MODIFIED` and the result's `filesChanged`. Default: 1, or 0 for no progress. */
  readonly filesModified?: number | undefined;
  /** The block's `TESTS_STATUS`. Default: `PASSING`, or `NOT_RUN` for no progress. */
  readonly testsStatus?: TestsStatus | undefined;
  /** The block's `WORK_TYPE`. Default: `IMPLEMENTATION`. */
  readonly workType?: WorkType | undefined;
  /** The block's `RECOMMENDATION`, one line. Default: a line fitting the answer. */
  readonly recommendation?: string | undefined;
  /** The result's `sessionId`. Default: none. */
  readonly sessionId?: string | null | undefined;
  /** The result's `costUsd`, in US dollars. Default: none. */
  readonly costUsd?: number | undefined;
}

/** Options of {@link completesTask}. */
export interface CompletesTaskOptions extends ScriptedAnswerOptions {
  /**
   * The agent also says the whole project is complete (`STATUS: COMPLETE`, `EXIT_SIGNAL:
   * true`), as in the last or the wrap-up iteration. Default: `false` (`STATUS: IN_PROGRESS`,
   * `EXIT_SIGNAL: false`).
   */
  readonly exitSignal?: boolean | undefined;
}

/** Options of {@link hitsUsageLimit}. */
export interface HitsUsageLimitOptions {
  /** Whether waiting lifts the limit (`false`: a spend cap or an administrative block). Default: `true`. */
  readonly waitable?: boolean | undefined;
  /** The provider's words, the result's `output` and `error`. Default: a sentence with the reset time. */
  readonly message?: string | undefined;
}

/**
 * The answer of an agent that finished its task: `success` and `taskComplete` are `true`, and
 * the output ends with a status block saying one task done (`STATUS: IN_PROGRESS`,
 * `TASKS_COMPLETED_THIS_LOOP: 1`, `FILES_MODIFIED: 1`, `TESTS_STATUS: PASSING`, `WORK_TYPE:
 * IMPLEMENTATION`, `EXIT_SIGNAL: false`). With `exitSignal: true` the agent also says the
 * whole project is complete (`STATUS: COMPLETE`, `EXIT_SIGNAL: true`).
 *
 * @example
 * ```ts
 * createScriptedExecutor([completesTask(), completesTask({ exitSignal: true, costUsd: 0.12 })]);
 * completesTask().output;
 * // Implemented the task and added tests for it; the tests pass.
 * //
 * // ---RALPH_STATUS---
 * // STATUS: IN_PROGRESS
 * // TASKS_COMPLETED_THIS_LOOP: 1
 * // FILES_MODIFIED: 1
 * // TESTS_STATUS: PASSING
 * // WORK_TYPE: IMPLEMENTATION
 * // EXIT_SIGNAL: false
 * // RECOMMENDATION: Continue with the next task
 * // ---END_RALPH_STATUS---
 * ```
 *
 * @param options - what the answer says, and the run's session id and cost.
 * @throws {TypeError} when an option has the wrong type or value.
 */
export function completesTask(options?: CompletesTaskOptions | null): ExecutionResult {
  const exitSignal = options?.exitSignal ?? false;
  if (typeof exitSignal !== "boolean") {
    throw new TypeError(`Option \`exitSignal\` must be a boolean, got ${typeof exitSignal}`);
  }
  return {
    ...scriptedAnswer(options, {
      summary: exitSignal
        ? "Implemented the last task and checked the whole plan: every task is done and the tests pass."
        : "Implemented the task and added tests for it; the tests pass.",
      status: exitSignal ? "COMPLETE" : "IN_PROGRESS",
      tasksCompletedThisLoop: 1,
      filesModified: 1,
      testsStatus: "PASSING",
      exitSignal,
      recommendation: exitSignal
        ? "Nothing left to do; the project is complete"
        : "Continue with the next task",
    }),
    taskComplete: true,
  };
}

/**
 * The answer of an agent that ran but got nowhere: `success` is `true`, `taskComplete` is
 * `false`, `filesChanged` is 0, and the output ends with a status block saying so
 * (`STATUS: IN_PROGRESS`, `TASKS_COMPLETED_THIS_LOOP: 0`, `FILES_MODIFIED: 0`, `TESTS_STATUS:
 * NOT_RUN`, `EXIT_SIGNAL: false`). Several in a row should trip the loop's no-progress check.
 *
 * @example
 * ```ts
 * createScriptedExecutor(makesNoProgress()); // every call: no progress
 * makesNoProgress({ workType: "TESTING", testsStatus: "PASSING" }); // a test-only run
 * ```
 *
 * @param options - what the answer says, and the run's session id and cost.
 * @throws {TypeError} when an option has the wrong type or value.
 */
export function makesNoProgress(options?: ScriptedAnswerOptions | null): ExecutionResult {
  return {
    ...scriptedAnswer(options, {
      summary: "Investigated the task but changed nothing yet.",
      status: "IN_PROGRESS",
      tasksCompletedThisLoop: 0,
      filesModified: 0,
      testsStatus: "NOT_RUN",
      exitSignal: false,
      recommendation: "Continue with the current task",
    }),
    taskComplete: false,
  };
}

/**
 * The answer of a run that failed (the agent crashed or its harness reported an error):
 * `success` is `false`, `error` is `message` and the output is `Error: <message>`, with no
 * status block. To make the call throw instead, put an `Error` in the script.
 *
 * @example
 * ```ts
 * createScriptedExecutor([fails("npm test exited with code 1"), completesTask()]);
 * fails("npm test exited with code 1");
 * // { success: false, output: "Error: npm test exited with code 1", error: "npm test exited with code 1" }
 * ```
 *
 * @param message - what went wrong, one line or more.
 * @throws {TypeError} when `message` is not a non-empty string.
 */
export function fails(message: string): ExecutionResult {
  if (typeof message !== "string" || message.trim() === "") {
    throw new TypeError(`fails: the message must be a non-empty string, got ${describe(message)}`);
  }
  return { success: false, output: `Error: ${message}`, error: message };
}

/**
 * The answer of a run the provider stopped at a usage limit: `success` is `false` and
 * `usageLimit` says when the limit resets and whether waiting lifts it. With a test clock the
 * loop's wait for the reset takes no real time.
 *
 * @example
 * ```ts
 * const clock = createTestClock({ start: new Date("2026-03-14T10:00:00Z") });
 * const executor = createScriptedExecutor([
 *   hitsUsageLimit(new Date("2026-03-14T15:00:00Z")),
 *   completesTask(),
 * ]);
 * // … run the loop with `clock` and `executor`, then:
 * expect(clock.totalSlept).toBeGreaterThanOrEqual(5 * 60 * 60 * 1000);
 * ```
 *
 * @param resetAt - when the limit resets (a `Date` or epoch milliseconds), or `null` when unknown.
 * @param options - whether waiting lifts it, and the provider's words.
 * @throws {TypeError} when `resetAt` or an option has the wrong type.
 */
export function hitsUsageLimit(
  resetAt: number | Date | null,
  options?: HitsUsageLimitOptions | null,
): ExecutionResult {
  const resetTime = resetAt instanceof Date ? resetAt.getTime() : resetAt;
  if (resetTime !== null && !Number.isFinite(resetTime)) {
    throw new TypeError(
      `hitsUsageLimit: resetAt must be a valid Date, epoch milliseconds or null, got ${resetAt instanceof Date ? "an invalid Date" : describe(resetAt)}`,
    );
  }
  const waitable = options?.waitable ?? true;
  if (typeof waitable !== "boolean") {
    throw new TypeError(`Option \`waitable\` must be a boolean, got ${typeof waitable}`);
  }
  const message =
    options?.message ??
    (resetTime === null
      ? "Usage limit reached."
      : `Usage limit reached; it resets at ${new Date(resetTime).toISOString()}.`);
  expectText(message, "message");
  return {
    success: false,
    output: message,
    error: message,
    usageLimit: { resetAt: resetTime, waitable, message },
  };
}

/**
 * A step for an agent that never answers on its own: the call settles only when its signal
 * fires (the engine times the iteration out or aborts the loop), and then resolves
 * `{ success: false, output: "", error: "aborted" }`, as a well-behaved executor does. A call
 * whose signal has already fired resolves so at once. Use it to test timeouts and aborts:
 * with a `TestClock`, the loop's iteration timeout ends it without any real wait.
 *
 * @example
 * ```ts
 * const executor = createScriptedExecutor([hangs(), completesTask()]);
 * // … run the loop with an iteration timeout, then:
 * expect(executor.calls[0]?.signalAborted).toBe(true);
 * ```
 */
export function hangs(): ScriptStep {
  return (_request, { signal }) =>
    new Promise<ExecutionResult>((resolve) => {
      const settle = (): void => resolve({ success: false, output: "", error: "aborted" });
      if (signal.aborted) settle();
      else signal.addEventListener("abort", settle, { once: true });
    });
}

/** The default values of a scripted answer, each overridable by an option but `status`, the task count and the exit signal. */
interface AnswerDefaults {
  readonly summary: string;
  readonly status: "IN_PROGRESS" | "COMPLETE";
  readonly tasksCompletedThisLoop: number;
  readonly filesModified: number;
  readonly testsStatus: TestsStatus;
  readonly exitSignal: boolean;
  readonly recommendation: string;
}

/** A successful result whose output ends with a status block: the defaults, then the options. */
function scriptedAnswer(
  options: ScriptedAnswerOptions | null | undefined,
  defaults: AnswerDefaults,
): ExecutionResult {
  const summary = options?.summary ?? defaults.summary;
  expectText(summary, "summary");
  const filesModified = options?.filesModified ?? defaults.filesModified;
  if (!Number.isSafeInteger(filesModified) || filesModified < 0) {
    throw new TypeError(
      `Option \`filesModified\` must be a whole number, 0 or more, got ${filesModified}`,
    );
  }
  const testsStatus = oneOf(
    options?.testsStatus ?? defaults.testsStatus,
    TESTS_STATUS_VALUES,
    "testsStatus",
  );
  const workType = oneOf(options?.workType ?? "IMPLEMENTATION", WORK_TYPES, "workType");
  const recommendation = options?.recommendation ?? defaults.recommendation;
  expectText(recommendation, "recommendation");
  if (/[\r\n]/.test(recommendation)) {
    throw new TypeError("Option `recommendation` must be one line");
  }
  const sessionId = options?.sessionId;
  if (sessionId !== undefined && sessionId !== null && typeof sessionId !== "string") {
    throw new TypeError(`Option \`sessionId\` must be a string or null, got ${typeof sessionId}`);
  }
  const costUsd = options?.costUsd;
  if (costUsd !== undefined && !(Number.isFinite(costUsd) && costUsd >= 0)) {
    throw new TypeError(`Option \`costUsd\` must be a number, 0 or more, got ${costUsd}`);
  }
  return {
    success: true,
    output: answerWithStatusBlock(summary, {
      status: defaults.status,
      tasksCompletedThisLoop: defaults.tasksCompletedThisLoop,
      filesModified,
      testsStatus,
      workType,
      exitSignal: defaults.exitSignal,
      recommendation,
    }),
    filesChanged: filesModified,
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(costUsd === undefined ? {} : { costUsd }),
  };
}

function oneOf<Value extends string>(value: Value, allowed: readonly Value[], name: string): Value {
  if (allowed.includes(value)) return value;
  throw new TypeError(
    `Option \`${name}\` must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`,
  );
}

function expectText(value: unknown, name: string): asserts value is string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new TypeError(`Option \`${name}\` must be a non-empty string, got ${describe(value)}`);
  }
}

/** A value's kind, for error messages. */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  return typeof value;
}

import type {
  Clock,
  ExecuteOptions,
  ExecutionRequest,
  ExecutionResult,
  Executor,
} from "@loop/core";

/** What a {@link ScriptStep} learns about the call it answers. */
export interface ScriptContext {
  /** The call's number, from 1: the first `execute` is call 1. */
  readonly call: number;
  /** The call's signal: it fires when the engine times the iteration out or aborts the loop. */
  readonly signal: AbortSignal;
}

/**
 * A scripted answer computed when the call comes: it may read the request, wait, watch the
 * signal, return a result (or a promise of one) or throw (a crashed agent).
 */
export type ScriptStep = (
  request: ExecutionRequest,
  context: ScriptContext,
) => ExecutionResult | Promise<ExecutionResult>;

/** One entry of a list script: a result returned as is, a step run for the call, or an error thrown. */
export type ScriptEntry = ExecutionResult | ScriptStep | Error;

/**
 * How a {@link ScriptedExecutor} answers: a step run for every call, one result (or error)
 * for every call, or a list with one entry per call, in order.
 */
export type ExecutionScript = ScriptStep | ExecutionResult | Error | readonly ScriptEntry[];

/** One call a {@link ScriptedExecutor} received. */
export interface ScriptedCall {
  /** The request, as the engine passed it (not copied). */
  readonly request: ExecutionRequest;
  /**
   * Whether the call's signal fired before the call settled: the engine timed the iteration
   * out or aborted the loop while the agent ran. Read while the call runs, it tells whether the
   * signal has fired so far; an abort after the call settled does not change it.
   */
  readonly signalAborted: boolean;
  /** When the call came, from the `clock` option (epoch milliseconds); `null` without one. */
  readonly at: number | null;
}

/** Options of {@link createScriptedExecutor}. */
export interface ScriptedExecutorOptions {
  /** The executor's name in logs. Default: `scripted`. */
  readonly name?: string | undefined;
  /** Stamps each call's `at`, typically a `TestClock`. Default: none (`at` is `null`). */
  readonly clock?: Pick<Clock, "now"> | undefined;
}

/** An `Executor` that answers from a script and records every call, as {@link createScriptedExecutor} returns it. */
export interface ScriptedExecutor extends Executor {
  /** Every call received, oldest first, those that threw included. */
  readonly calls: readonly ScriptedCall[];
  /** The request of every call, oldest first: `calls.map((call) => call.request)`. */
  readonly requests: readonly ExecutionRequest[];
}

/**
 * An `Executor` for tests: it answers each `execute` from `script` and records the call, so a
 * test can drive the loop through any sequence of agent answers and check what the engine
 * asked for.
 *
 * The script is a {@link ScriptStep} run for every call (`(request, { call, signal }) =>
 * result`, which may be async or throw), one `ExecutionResult` returned for every call, or a
 * list with one entry per call, in order. A list entry is a result, a step, or an `Error`
 * thrown for that call; a call past the end of the list throws an `Error` saying how many
 * calls were scripted. The list is copied: changing it afterwards changes nothing. Build
 * realistic results with {@link completesTask}, {@link makesNoProgress}, {@link fails},
 * {@link hitsUsageLimit} and {@link hangs}.
 *
 * A step that returns something other than an `ExecutionResult` (an object with a string
 * `output` and a boolean `success`) makes the call throw a `TypeError`, and a call without an
 * `AbortSignal` in its options throws one too: both are bugs the test should see.
 *
 * @example
 * ```ts
 * const executor = createScriptedExecutor([completesTask(), fails("npm test exited with code 1")]);
 * const { signal } = new AbortController();
 * await executor.execute(request, { signal }); // completesTask()'s result
 * await executor.execute(request, { signal }); // { success: false, error: "npm test exited with code 1", … }
 * await executor.execute(request, { signal }); // throws: call 3 ran past the end of the script, which scripts 2 calls
 * executor.requests; // [request, request, request]
 *
 * // In a loop test: `runLoop({ plan, store, executor, clock: createTestClock() })`.
 * ```
 *
 * @param script - how to answer each call.
 * @param options - the executor's name, and a clock to stamp the calls.
 * @throws {TypeError} when an option or the script (or one of its entries) has the wrong type.
 */
export function createScriptedExecutor(
  script: ExecutionScript,
  options?: ScriptedExecutorOptions | null,
): ScriptedExecutor {
  const name = options?.name ?? "scripted";
  if (typeof name !== "string" || name === "") {
    throw new TypeError(`Option \`name\` must be a non-empty string, got ${describe(name)}`);
  }
  const clock = options?.clock ?? null;
  if (clock !== null && typeof clock?.now !== "function") {
    throw new TypeError(`Option \`clock\` must have a \`now\` method, got ${describe(clock)}`);
  }
  const entryFor = scriptReader(script, name);
  const calls: ScriptedCall[] = [];

  return {
    name,
    specificationVersion: "v1",
    calls,
    get requests() {
      return calls.map((call) => call.request);
    },
    async execute(request: ExecutionRequest, executeOptions: ExecuteOptions) {
      const signal = executeOptions?.signal;
      if (!isAbortSignal(signal)) {
        throw new TypeError(
          `Scripted executor "${name}": execute needs \`{ signal }\`, an AbortSignal, got ${describe(signal)}`,
        );
      }
      const record = { request, signalAborted: signal.aborted, at: clock?.now() ?? null };
      calls.push(record);
      const onAbort = (): void => {
        record.signalAborted = true;
      };
      signal.addEventListener("abort", onAbort, { once: true });
      try {
        const call = calls.length;
        const entry = entryFor(call);
        if (entry instanceof Error) throw entry;
        const result = typeof entry === "function" ? await entry(request, { call, signal }) : entry;
        if (!isExecutionResult(result)) {
          throw new TypeError(
            `Scripted executor "${name}": call ${call} returned ${describe(result)}, not an ExecutionResult ({ output: string, success: boolean })`,
          );
        }
        return result;
      } finally {
        signal.removeEventListener("abort", onAbort);
      }
    },
  };
}

/** Checks the script once, and returns what answers call `call` (from 1). */
function scriptReader(script: ExecutionScript, name: string): (call: number) => ScriptEntry {
  if (!Array.isArray(script)) {
    if (!isScriptEntry(script)) {
      throw new TypeError(
        `createScriptedExecutor: the script must be a function, an ExecutionResult ({ output: string, success: boolean }), an Error or a list of them, got ${describe(script)}`,
      );
    }
    return () => script;
  }
  const entries: readonly ScriptEntry[] = [...script];
  entries.forEach((entry, index) => {
    if (!isScriptEntry(entry)) {
      throw new TypeError(
        `createScriptedExecutor: entry ${index} of the script must be a function, an ExecutionResult ({ output: string, success: boolean }) or an Error, got ${describe(entry)}`,
      );
    }
  });
  return (call) => {
    const entry = entries[call - 1];
    if (entry === undefined) {
      throw new Error(
        `Scripted executor "${name}": call ${call} ran past the end of the script, which scripts ${entries.length} ${entries.length === 1 ? "call" : "calls"}`,
      );
    }
    return entry;
  };
}

function isScriptEntry(value: unknown): value is ScriptEntry {
  return typeof value === "function" || value instanceof Error || isExecutionResult(value);
}

function isExecutionResult(value: unknown): value is ExecutionResult {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<Record<keyof ExecutionResult, unknown>>;
  return typeof candidate.output === "string" && typeof candidate.success === "boolean";
}

function isAbortSignal(value: unknown): value is AbortSignal {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<Record<keyof AbortSignal, unknown>>;
  return typeof candidate.aborted === "boolean" && typeof candidate.addEventListener === "function";
}

/** A value's kind, for error messages. */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value;
}

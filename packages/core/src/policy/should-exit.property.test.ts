import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LoopConfig } from "../config/loop-config.js";
import { resolveConfig } from "../config/resolve-config.js";
import type { ResponseSignals } from "../status/response-signals.js";
import type { ExitPolicyInput } from "./exit-policy-input.js";
import { EXIT_REASONS, isCompletionReason } from "./exit-reasons.js";
import { shouldExit } from "./should-exit.js";

// Properties of shouldExit on generated, well-typed inputs: a config built by resolveConfig from
// random in-range settings, random plans, answers, counters, circuit states, costs and times.

/** An ExitPolicyInput whose config is a full LoopConfig, so any setting can be changed. */
type Input = Omit<ExitPolicyInput, "config"> & { readonly config: LoopConfig };

const runs = { numRuns: 300 };
const hour = 3_600_000;

/**
 * Mostly `usual`, sometimes anything from `all`. Keeps most generated loops from stopping for
 * an unrelated reason, so the properties below compare inputs near their thresholds.
 */
const mostly = <Value>(usual: fc.Arbitrary<Value>, all: fc.Arbitrary<Value>, weight = 6) =>
  fc.oneof({ arbitrary: usual, weight }, { arbitrary: all, weight: 1 });
/** A streak or count: mostly small, sometimes up to `max`. */
const count = (max: number) => mostly(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max }));

const configArb: fc.Arbitrary<LoopConfig> = fc
  .record({
    enforcement: fc.record({ enabled: fc.boolean() }),
    exit_policy: fc.record({
      min_completion_indicators: fc.integer({ min: 0, max: 4 }),
      require_exit_signal: fc.boolean(),
      require_all_tasks_complete: fc.boolean(),
      require_verification_pass: fc.boolean(),
    }),
    verification: fc.record({
      enabled: fc.boolean(),
      lookback_turns: fc.integer({ min: 0, max: 20 }),
      fuzzy_match_threshold: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
    limits: fc.record({
      max_iterations: fc.integer({ min: 1, max: 40 }),
      max_calls_per_hour: fc.integer({ min: 1, max: 200 }),
      max_cost_usd: fc.option(fc.double({ min: 0.01, max: 10, noNaN: true }), { nil: null }),
      max_duration_minutes: fc.option(fc.double({ min: 0.5, max: 120, noNaN: true }), {
        nil: null,
      }),
      iteration_timeout_minutes: fc.double({ min: 0.1, max: 60, noNaN: true }),
    }),
    tasks: fc.record({ max_attempts: fc.integer({ min: 1, max: 5 }) }),
    stop_when: fc.record({
      test_only_loops: fc.integer({ min: 0, max: 6 }),
      done_signals: fc.integer({ min: 0, max: 6 }),
      question_loops: fc.integer({ min: 0, max: 6 }),
    }),
    circuit_breaker: fc.record({
      no_progress_loops: fc.integer({ min: 1, max: 8 }),
      same_error_loops: fc.integer({ min: 1, max: 8 }),
      permission_denial_loops: fc.integer({ min: 1, max: 8 }),
      cooldown_minutes: fc.integer({ min: 0, max: 120 }),
    }),
    usage_limit: fc.record({ on_limit: fc.constantFrom("wait" as const, "exit" as const) }),
  })
  .map((settings) => resolveConfig(settings));

const signalsArb: fc.Arbitrary<ResponseSignals> = fc
  .record({
    exitSignal: fc.option(
      fc.record({
        value: fc.boolean(),
        source: fc.constantFrom("status_block" as const, "promise_tag" as const),
      }),
      { nil: null },
    ),
    doneSignal: fc.boolean(),
    testOnly: fc.boolean(),
    blocked: mostly(fc.constant(false), fc.boolean()),
    questions: fc.array(fc.constantFrom("Should I use A or B?", "Please confirm."), {
      maxLength: 2,
    }),
    errorFingerprint: fc.option(fc.constantFrom("0123456789abcdef", "fedcba9876543210"), {
      nil: null,
    }),
    completionPhrases: fc.array(fc.constantFrom("All tasks are complete", "Done"), {
      maxLength: 2,
    }),
  })
  .map((shape) => ({
    statusBlock: null,
    exitSignal: shape.exitSignal,
    doneSignal: shape.doneSignal,
    testOnly: shape.testOnly,
    completionPhrases: shape.completionPhrases,
    completionIndicatorCount: shape.completionPhrases.length,
    blocked: shape.blocked,
    blockedReason: shape.blocked ? "I cannot proceed without the API key." : null,
    questions: shape.questions,
    askingQuestions: shape.questions.length > 0,
    errorFingerprint: shape.errorFingerprint,
    errorSummary: shape.errorFingerprint === null ? null : "Error: something failed",
    permissionDenials: [],
    promiseTag: null,
    contradictions: [],
  }));

const taskArb = fc.record(
  {
    id: fc.stringMatching(/^TASK-00[1-9]$/),
    done: fc.boolean(),
    optional: fc.boolean(),
  },
  { requiredKeys: ["id", "done"] },
);

const inputArb: fc.Arbitrary<Input> = fc
  .record({
    config: configArb,
    tasks: fc.array(taskArb, { maxLength: 8 }),
    planStatus: fc.option(fc.record({ exitSignal: fc.option(fc.boolean(), { nil: null }) }), {
      nil: null,
    }),
    signals: fc.option(signalsArb, { nil: null }),
    verification: fc.option(fc.record({ passed: fc.boolean() }), { nil: null }),
    stories: mostly(
      fc.constant(null),
      fc.array(fc.record({ passes: fc.boolean() }), { maxLength: 4 }),
    ),
    selection: mostly(
      fc.constant(null),
      fc.record({ kind: fc.constantFrom("task" as const, "wrap_up" as const, "none" as const) }),
    ),
    iterations: mostly(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 50 })),
    completionIndicators: count(10),
    costUsd: fc.option(
      mostly(
        fc.double({ min: 0, max: 5, noNaN: true }),
        fc.double({ min: 0, max: 200, noNaN: true }),
      ),
      { nil: undefined },
    ),
    startedAt: fc.integer({ min: 0, max: 2 * 10 ** 12 }),
    elapsed: mostly(
      fc.integer({ min: -hour, max: hour }),
      fc.integer({ min: -hour, max: 6 * hour }),
    ),
    circuit: mostly(
      fc.constant(undefined),
      fc.constantFrom("CLOSED" as const, "HALF_OPEN" as const, "OPEN" as const),
    ),
    counters: fc.option(
      fc.record({
        testOnlyStreak: count(8),
        doneSignalStreak: count(8),
        questionOnlyStreak: count(8),
      }),
      { nil: undefined },
    ),
    aborted: mostly(fc.constant(undefined), fc.boolean(), 20),
  })
  .map(({ elapsed, ...input }) => ({ ...input, now: input.startedAt + elapsed }));

/** The same input with non-finite and out-of-range numbers where plain `number`s are allowed. */
const wildInputArb: fc.Arbitrary<Input> = fc
  .record({
    input: inputArb,
    iterations: fc.oneof(fc.integer(), fc.double()),
    completionIndicators: fc.oneof(fc.integer(), fc.double()),
    costUsd: fc.double(),
    startedAt: fc.double(),
    now: fc.double(),
  })
  .map(({ input, ...numbers }) => ({ ...input, ...numbers }));

const exits = (input: Input, config: LoopConfig): boolean => shouldExit({ ...input, config }).exit;

describe("shouldExit properties", () => {
  it("never throws, exits exactly when it gives a reason, and the reason is a known code", () => {
    const check = (input: Input) => {
      const decision = shouldExit(input);
      expect(decision.exit).toBe(decision.reason !== null);
      if (decision.reason !== null) expect(EXIT_REASONS).toContain(decision.reason);
      // A passed gate is reported as completion unless the caller aborted or the agent is blocked.
      if (decision.gatePassed && decision.reason !== "aborted" && decision.reason !== "blocked") {
        expect(decision.reason !== null && isCompletionReason(decision.reason)).toBe(true);
      }
    };
    fc.assert(fc.property(inputArb, check), runs);
    fc.assert(fc.property(wildInputArb, check), runs);
  });

  /** Two values of a threshold, the lower first. `null` (no cap) is the highest. */
  const ordered = <Value extends number | null>(values: fc.Arbitrary<Value>) =>
    fc.tuple(values, values).map(([a, b]): readonly [Value, Value] => {
      if (a === null) return [b, a];
      if (b === null) return [a, b];
      return a <= b ? [a, b] : [b, a];
    });

  /**
   * Asserts that `stricter` never makes the loop exit when `looser` does not: exit(stricter)
   * implies exit(looser). Also checks the generated inputs can tell them apart (on a fixed
   * sample, so the check is not flaky): some exit with `looser` only, so a policy that broke
   * the rule near the threshold would be caught.
   */
  function assertNeverExitsEarlier<Change>(
    changes: fc.Arbitrary<Change>,
    looser: (config: LoopConfig, change: Change) => LoopConfig,
    stricter: (config: LoopConfig, change: Change) => LoopConfig,
  ): void {
    fc.assert(
      fc.property(inputArb, changes, (input, change) => {
        if (exits(input, stricter(input.config, change))) {
          expect(exits(input, looser(input.config, change))).toBe(true);
        }
      }),
      runs,
    );
    const sample = fc.sample(fc.tuple(inputArb, changes), { numRuns: 1_000, seed: 1 });
    const distinguishing = sample.filter(
      ([input, change]) =>
        exits(input, looser(input.config, change)) && !exits(input, stricter(input.config, change)),
    );
    expect(distinguishing.length).toBeGreaterThan(0);
  }

  /** Raising a threshold: the stricter config has the higher of two values. */
  function assertRaisingNeverExitsEarlier<Value>(
    pairs: fc.Arbitrary<readonly [Value, Value]>,
    set: (config: LoopConfig, value: Value) => LoopConfig,
  ): void {
    assertNeverExitsEarlier(
      pairs,
      (config, [lower]) => set(config, lower),
      (config, [, higher]) => set(config, higher),
    );
  }

  /** Integers mostly from `min` to `usualMax` (where the generated inputs are), up to `max`. */
  const near = (min: number, usualMax: number, max: number) =>
    mostly(fc.integer({ min, max: usualMax }), fc.integer({ min, max }), 3);
  const cap = (min: number, usualMax: number, max: number) =>
    ordered(
      fc.option(
        mostly(
          fc.double({ min, max: usualMax, noNaN: true }),
          fc.double({ min, max, noNaN: true }),
          3,
        ),
        { nil: null, freq: 8 },
      ),
    );
  // stop_when.* and question_loops: only values ≥ 1. A detector at 0 is disabled, so raising
  // 0 to 1 switches the detector on and can make the loop exit earlier: that is the documented
  // meaning of 0, not a threshold being raised (see the test below).
  const detector = ordered(near(1, 3, 8));

  const thresholds: readonly (readonly [string, () => void])[] = [
    [
      "limits.max_iterations",
      () =>
        assertRaisingNeverExitsEarlier(ordered(near(1, 10, 60)), (c, value) => ({
          ...c,
          limits: { ...c.limits, max_iterations: value },
        })),
    ],
    [
      "limits.max_cost_usd",
      () =>
        assertRaisingNeverExitsEarlier(cap(0.01, 6, 250), (c, value) => ({
          ...c,
          limits: { ...c.limits, max_cost_usd: value },
        })),
    ],
    [
      "limits.max_duration_minutes",
      () =>
        assertRaisingNeverExitsEarlier(cap(0.01, 70, 400), (c, value) => ({
          ...c,
          limits: { ...c.limits, max_duration_minutes: value },
        })),
    ],
    [
      "exit_policy.min_completion_indicators",
      () =>
        assertRaisingNeverExitsEarlier(ordered(near(0, 3, 12)), (c, value) => ({
          ...c,
          exit_policy: { ...c.exit_policy, min_completion_indicators: value },
        })),
    ],
    [
      "stop_when.test_only_loops",
      () =>
        assertRaisingNeverExitsEarlier(detector, (c, value) => ({
          ...c,
          stop_when: { ...c.stop_when, test_only_loops: value },
        })),
    ],
    [
      "stop_when.done_signals",
      () =>
        assertRaisingNeverExitsEarlier(detector, (c, value) => ({
          ...c,
          stop_when: { ...c.stop_when, done_signals: value },
        })),
    ],
    [
      "stop_when.question_loops",
      () =>
        assertRaisingNeverExitsEarlier(detector, (c, value) => ({
          ...c,
          stop_when: { ...c.stop_when, question_loops: value },
        })),
    ],
  ];

  it.each(thresholds)("raising %s never makes the loop exit earlier", (_, run) => run());

  it("0 is excluded above because it disables a detector: 0 never exits, 1 may", () => {
    const input: ExitPolicyInput = {
      config: resolveConfig({ stop_when: { test_only_loops: 0 } }),
      tasks: [{ id: "TASK-001", done: false }],
      iterations: 1,
      completionIndicators: 0,
      startedAt: 0,
      now: 0,
      counters: { testOnlyStreak: 5, doneSignalStreak: 0, questionOnlyStreak: 0 },
    };
    expect(shouldExit(input).exit).toBe(false);
    const enabled = resolveConfig({ stop_when: { test_only_loops: 1 } });
    expect(shouldExit({ ...input, config: enabled }).reason).toBe("test_saturation");
  });

  const requirements: readonly (readonly [string, (c: LoopConfig, on: boolean) => LoopConfig])[] = [
    [
      "exit_policy.require_exit_signal",
      (c, on) => ({ ...c, exit_policy: { ...c.exit_policy, require_exit_signal: on } }),
    ],
    [
      "exit_policy.require_all_tasks_complete",
      (c, on) => ({ ...c, exit_policy: { ...c.exit_policy, require_all_tasks_complete: on } }),
    ],
    [
      "exit_policy.require_verification_pass",
      (c, on) => ({ ...c, exit_policy: { ...c.exit_policy, require_verification_pass: on } }),
    ],
    ["enforcement.enabled", (c, on) => ({ ...c, enforcement: { enabled: on } })],
  ];

  it.each(requirements)("enabling %s never makes the loop exit earlier", (_, set) => {
    assertNeverExitsEarlier(
      fc.constant(null),
      (config) => set(config, false),
      (config) => set(config, true),
    );
  });

  it("the generated inputs are not trivial: they exit for many different reasons", () => {
    const reasons = new Set(
      fc.sample(inputArb, { numRuns: 2_000, seed: 42 }).map((input) => shouldExit(input).reason),
    );
    for (const reason of [
      null,
      "all_tasks_complete",
      "exit_signal",
      "aborted",
      "prd_complete",
      "blocked",
      "needs_input",
      "circuit_open",
      "test_saturation",
      "done_signals",
      "no_runnable_tasks",
      "budget_exhausted",
      "time_limit",
      "max_iterations",
    ]) {
      expect(reasons).toContain(reason);
    }
  });
});

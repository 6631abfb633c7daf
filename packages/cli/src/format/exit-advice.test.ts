import { type LoopState, LoopStateSchema, resolveConfig } from "@loop/core";
import { describe, expect, it } from "vitest";
import { exitAdvice } from "./exit-advice.js";

const NOW = Date.parse("2026-03-14T09:10:00Z");
const config = resolveConfig({});

function state(overrides: Record<string, unknown> = {}): LoopState {
  return LoopStateSchema.parse({
    current_task_id: "TASK-001",
    completed_tasks: [],
    failed_tasks: [],
    completion_indicators: 0,
    loop_metadata: {
      plan_path: "/project/plan.md",
      started_at: "2026-03-14T08:00:00.000Z",
      last_update: "2026-03-14T09:01:00.000Z",
      iterations: 20,
    },
    cost_usd: 5.5,
    ...overrides,
  });
}

const openBreaker = {
  state: "OPEN",
  no_progress_streak: 5,
  same_error_streak: 0,
  last_error_fingerprint: null,
  permission_denial_streak: 0,
  opened_at: "2026-03-14T09:01:00.000Z",
  trip: "no_progress",
  times_opened: 1,
};

const run = (fields: Record<string, unknown>) => ({
  run: {
    run_id: "run-1",
    started_at: "2026-03-14T08:00:00.000Z",
    status: "exited",
    iterations_at_start: 0,
    cost_usd_at_start: 0,
    ...fields,
  },
});

describe("exitAdvice", () => {
  it("circuit_open: why, when it half-opens in UTC, and loop reset", () => {
    const lines = exitAdvice({
      reason: "circuit_open",
      state: state({ circuit_breaker: openBreaker }),
      config,
      now: NOW,
    });
    expect(lines).toEqual([
      "the circuit breaker opened after 5 iterations in a row without progress on TASK-001; it half-opens at 09:31:00 UTC (circuit_breaker.cooldown_minutes), when `loop run` tries again, or run `loop reset` to close it now",
    ]);
  });

  it("circuit_open: names the other trips, and a cooldown that is over", () => {
    const sameError = { ...openBreaker, trip: "same_error", same_error_streak: 5 };
    const later = Date.parse("2026-03-14T10:00:00Z");
    expect(
      exitAdvice({
        reason: "circuit_open",
        state: state({ circuit_breaker: sameError }),
        config,
        now: later,
      }),
    ).toEqual([
      "the circuit breaker opened after the same error 5 times in a row on TASK-001; its cooldown is over: `loop run` tries again, or `loop reset` closes it",
    ]);
    const denied = { ...openBreaker, trip: "permission_denials", permission_denial_streak: 3 };
    const lines = exitAdvice({
      reason: "circuit_open",
      state: state({ circuit_breaker: denied }),
      config,
      now: NOW,
    });
    expect(lines[0]).toMatch(
      /^the circuit breaker opened after 3 iterations in a row with tools denied/,
    );
    expect(lines[1]).toContain("--permission-mode");
  });

  it("max_iterations: counts over all runs and names the key, the flag and loop reset", () => {
    expect(exitAdvice({ reason: "max_iterations", state: state(), config, now: NOW })).toEqual([
      "20 of 20 iterations used over all runs; raise limits.max_iterations (or pass --max-iterations) or run `loop reset`",
    ]);
    // The limit the run really used (--max-iterations 2) comes from the decision's check.
    const checks = [
      {
        name: "max_iterations",
        kind: "safety",
        value: 2,
        threshold: 2,
        required: true,
        met: true,
        detail: "iteration 2 of 2",
      },
    ] as const;
    const two = state({ loop_metadata: { ...state().loop_metadata, iterations: 2 } });
    expect(
      exitAdvice({ reason: "max_iterations", state: two, config, checks, now: NOW })[0],
    ).toMatch(/^2 of 2 iterations used over all runs/);
  });

  it("after a reset, says the stop has been lifted", () => {
    const reset = state({ loop_metadata: { ...state().loop_metadata, iterations: 0 } });
    expect(exitAdvice({ reason: "max_iterations", state: reset, config, now: NOW })).toEqual([
      "iterations were reset since (0 of 20 used): `loop run` goes on",
    ]);
    expect(exitAdvice({ reason: "circuit_open", state: state(), config, now: NOW })).toEqual([
      "the circuit breaker is CLOSED now (reset since): `loop run` goes on",
    ]);
    expect(exitAdvice({ reason: "no_runnable_tasks", state: state(), config, now: NOW })).toEqual([
      "the given-up tasks were forgotten since: `loop run` tries them again",
    ]);
  });

  it("budget_exhausted: the spend over all runs, the key, the flag and loop reset --cost", () => {
    const capped = resolveConfig({ limits: { max_cost_usd: 5 } });
    expect(
      exitAdvice({ reason: "budget_exhausted", state: state(), config: capped, now: NOW }),
    ).toEqual([
      "$5.50 of the $5.00 budget spent over all runs; raise limits.max_cost_usd (or pass --max-cost), or run `loop reset --cost` to count from $0",
    ]);
  });

  it("no_runnable_tasks: the given-up tasks and loop reset --failed", () => {
    const lines = exitAdvice({
      reason: "no_runnable_tasks",
      state: state({ failed_tasks: ["TASK-002", "TASK-004"] }),
      config,
      now: NOW,
    });
    expect(lines[0]).toContain("2 tasks given up after 3 attempts (TASK-002, TASK-004)");
    expect(lines[0]).toContain("`loop reset --failed`");
  });

  it("blocked: the agent's reason and recommendation", () => {
    const report = {
      reason: "I cannot proceed without the Stripe API key.",
      questions: [],
      recommendation: "Add STRIPE_KEY to .env",
    };
    expect(
      exitAdvice({
        reason: "blocked",
        state: state(run({ exit_reason: "blocked", agent_report: report })),
        config,
        now: NOW,
      }),
    ).toEqual([
      "the agent is blocked: I cannot proceed without the Stripe API key.; give it what it needs (or write the decision in the plan), then `loop run`",
      "recommendation: Add STRIPE_KEY to .env",
    ]);
  });

  it("needs_input: every question the agent asked, to answer in the plan", () => {
    const report = {
      reason: null,
      questions: ["Should I use SQLite or Postgres?", "Which port do you want?"],
      recommendation: null,
    };
    expect(
      exitAdvice({
        reason: "needs_input",
        state: state(run({ exit_reason: "needs_input", agent_report: report })),
        config,
        now: NOW,
      }),
    ).toEqual([
      "the agent only asked questions for 3 iterations in a row (stop_when.question_loops); answer them in the plan, then `loop run`",
      "asked: Should I use SQLite or Postgres?",
      "asked: Which port do you want?",
    ]);
  });

  it("usage_limit: when it lifts, in UTC, or that waiting does not lift it", () => {
    const waitable = run({
      exit_reason: "usage_limit",
      usage_limit: { reset_at: "2026-03-14T15:00:00.000Z", waitable: true, message: "limit" },
    });
    expect(exitAdvice({ reason: "usage_limit", state: state(waitable), config, now: NOW })).toEqual(
      [
        "the agent's usage limit was reached; it lifts at 15:00:00 UTC; `loop run` once it lifts, or set usage_limit.on_limit: wait to wait it out",
      ],
    );
    const cap = run({
      exit_reason: "usage_limit",
      usage_limit: { reset_at: null, waitable: false, message: "Spend cap reached" },
    });
    expect(exitAdvice({ reason: "usage_limit", state: state(cap), config, now: NOW })[0]).toBe(
      "the agent's usage limit cannot be lifted by waiting: Spend cap reached; check the agent's plan or billing, then `loop run`",
    );
  });

  it.each([
    ["time_limit", "limits.max_duration_minutes"],
    ["test_saturation", "stop_when.test_only_loops"],
    ["done_signals", "stop_when.done_signals"],
    ["aborted", "`loop run` goes on"],
  ] as const)("%s names what to do: %s", (reason, advice) => {
    const lines = exitAdvice({ reason, state: state(), config, now: NOW });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(advice);
  });

  it("has nothing to add to a completion or an error", () => {
    for (const reason of ["all_tasks_complete", "exit_signal", "plan_error", "error"] as const) {
      expect(exitAdvice({ reason, state: state(), config, now: NOW })).toEqual([]);
    }
  });
});

import type { ResetSnapshot } from "@loop/core";
import { describe, expect, it } from "vitest";
import { summarizeReset } from "./reset-summary.js";

const before: ResetSnapshot = {
  circuit_breaker: "OPEN",
  failed_tasks: ["TASK-002", "TASK-004"],
  task_attempts: { "TASK-002": 3, "TASK-004": 3 },
  iterations: 20,
  session_id: "sess-1",
  cost_usd: 4.5,
};
const after: ResetSnapshot = {
  circuit_breaker: "CLOSED",
  failed_tasks: [],
  task_attempts: {},
  iterations: 0,
  session_id: null,
  cost_usd: 0,
};

describe("summarizeReset", () => {
  it("says what each part was and became, in the parts' order", () => {
    expect(
      summarizeReset({
        parts: ["breaker", "failed", "iterations", "session", "cost"],
        before,
        after,
      }),
    ).toBe(
      "circuit breaker OPEN → CLOSED; 2 given-up tasks forgotten (TASK-002, TASK-004), attempts of 2 tasks cleared; iterations 20 → 0; agent session sess-1 forgotten; cost $4.50 → $0.00",
    );
  });

  it("says so when a part had nothing to reset", () => {
    const calm: ResetSnapshot = { ...after, cost_usd: 0 };
    expect(
      summarizeReset({ parts: ["breaker", "failed", "session"], before: calm, after: calm }),
    ).toBe("circuit breaker already CLOSED; no given-up task; no agent session");
  });
});

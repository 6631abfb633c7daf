import { describe, expect, it } from "vitest";
import { createStyle } from "../style.js";
import { createTerminalDisplay, statusLine } from "./run-display.js";
import type { RunView } from "./run-tracker.js";

const NOW = Date.parse("2026-11-29T12:00:00Z");

function view(overrides: Partial<RunView> = {}): RunView {
  return {
    iteration: 3,
    task: { id: "TASK-002", title: "List todos" },
    tasksDone: 2,
    tasksTotal: 5,
    callsThisHour: 12,
    maxCallsPerHour: 100,
    costUsd: 0.4213,
    wait: null,
    lastAction: "executing",
    ...overrides,
  };
}

function collector(columns?: number) {
  const writes: string[] = [];
  return { writes, output: { write: (text: string) => writes.push(text), isTTY: true, columns } };
}

describe("statusLine", () => {
  it("shows the iteration, task, tasks done, calls this hour and cost", () => {
    expect(statusLine(view(), NOW)).toBe(
      "iteration 3 · TASK-002 List todos · tasks 2/5 · calls 12/100 this hour · $0.42",
    );
    expect(statusLine(view({ task: null }), NOW)).toContain("iteration 3 · wrap-up");
    expect(statusLine(view({ iteration: 0, task: null, tasksTotal: null }), NOW)).toBe(
      "starting · calls 12/100 this hour · $0.42",
    );
  });

  it("counts down while waiting for a limit, and forgets a wait that is over", () => {
    const usage = view({ wait: { kind: "usage_limit", until: NOW + 723_000 } });
    expect(statusLine(usage, NOW)).toMatch(
      /^waiting for the usage limit: 12m 03s left · tasks 2\/5/,
    );
    const rate = view({ wait: { kind: "rate_limit", until: NOW + 500 } });
    expect(statusLine(rate, NOW)).toMatch(/^waiting for the hourly call limit: 1s left/);
    expect(statusLine(view({ wait: { kind: "rate_limit", until: NOW - 1 } }), NOW)).toMatch(
      /^iteration 3/,
    );
  });
});

describe("createTerminalDisplay", () => {
  const plain = createStyle({ write: () => undefined, isTTY: false }, {});

  it("redraws the status line in place and keeps lines above it", () => {
    const { writes, output } = collector();
    const display = createTerminalDisplay(output, plain, () => NOW);
    display.update(view());
    display.line("✓ TASK-001 complete");
    display.finish();
    expect(writes.join("")).toBe(
      [
        statusLine(view(), NOW),
        "\r\u001b[2K✓ TASK-001 complete\n",
        statusLine(view(), NOW),
        "\r\u001b[2K",
      ].join(""),
    );
  });

  it("cuts the status line to the terminal's width", () => {
    const { writes, output } = collector(20);
    createTerminalDisplay(output, plain, () => NOW).update(view());
    expect(writes[0]).toBe("iteration 3 · TASK…");
  });
});

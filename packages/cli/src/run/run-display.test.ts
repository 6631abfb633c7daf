import {
  type Clock,
  createLoop,
  type ExecutionResult,
  type LoopResult,
  LoopStateSchema,
  type PlanSource,
  resolveConfig,
  type StateStore,
} from "@loop/core";
import { describe, expect, it, vi } from "vitest";
import { createStyle } from "../style.js";
import { createTerminalDisplay, resultLine, showEvents, statusLine } from "./run-display.js";
import type { RunView } from "./run-tracker.js";

const NOW = Date.parse("2026-11-29T12:00:00Z");
const plain = createStyle({ write: () => undefined, isTTY: false }, {});

function view(overrides: Partial<RunView> = {}): RunView {
  return {
    iteration: 3,
    task: { id: "TASK-002", title: "List todos" },
    tasksDone: 2,
    tasksTotal: 5,
    callsThisHour: 12,
    maxCallsPerHour: 100,
    costUsd: 0.4213,
    costReported: true,
    iterationStartedAt: null,
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

  it("shows how long the running iteration has taken", () => {
    expect(statusLine(view({ iterationStartedAt: NOW - 64_000 }), NOW)).toMatch(
      /^iteration 3 \(1m 04s\) · TASK-002 List todos/,
    );
  });

  it("says the cost is unknown while no agent run reported one, never $0.00", () => {
    expect(statusLine(view({ costUsd: 0, costReported: false }), NOW)).toMatch(/· cost unknown$/);
    expect(statusLine(view({ costUsd: 0, costReported: true }), NOW)).toMatch(/· \$0\.00$/);
    // What earlier runs reported is known, even when this run's agent says nothing.
    expect(statusLine(view({ costUsd: 1.5, costReported: false }), NOW)).toMatch(/· \$1\.50$/);
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

  it("on a narrow terminal cuts the task's title, never the counts or the cost", () => {
    const long = view({ task: { id: "TASK-002", title: "List every todo with its due date" } });
    const line = statusLine(long, NOW, 78);
    expect(line).toBe(
      "iteration 3 · TASK-002 List ever… · tasks 2/5 · calls 12/100 this hour · $0.42",
    );
    expect(line).toHaveLength(78);
    // No room for a letter of the title: the id alone; narrower still, the line itself is cut.
    expect(statusLine(long, NOW, 68)).toBe(
      "iteration 3 · TASK-002 · tasks 2/5 · calls 12/100 this hour · $0.42",
    );
    expect(statusLine(long, NOW, 40)).toBe("iteration 3 · TASK-002 · tasks 2/5 · ca…");
  });
});

describe("createTerminalDisplay", () => {
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

  it("redraws every second while an iteration runs, so its elapsed time goes on, and stops after", () => {
    vi.useFakeTimers();
    try {
      let time = NOW;
      const { writes, output } = collector();
      const display = createTerminalDisplay(output, plain, () => time);
      display.update(view({ iterationStartedAt: NOW }));
      time += 5_000;
      vi.advanceTimersByTime(5_000);
      expect(writes.at(-1)).toMatch(/^iteration 3 \(5s\)/);
      display.update(view({ iterationStartedAt: null }));
      const drawn = writes.length;
      vi.advanceTimersByTime(5_000);
      expect(writes).toHaveLength(drawn);
      display.finish();
    } finally {
      vi.useRealTimers();
    }
  });

  it("fits the status line to the terminal's width, one column spare", () => {
    const { writes, output } = collector(79);
    createTerminalDisplay(output, plain, () => NOW).update(
      view({ task: { id: "TASK-002", title: "List every todo with its due date" } }),
    );
    expect(writes[0]).toBe(
      "iteration 3 · TASK-002 List ever… · tasks 2/5 · calls 12/100 this hour · $0.42",
    );
  });
});

/** A plan of `count` open tasks, in memory. */
function memoryPlan(count: number): PlanSource {
  let text = `# Plan\n\n${Array.from({ length: count }, (_, index) => `- [ ] TASK-00${index + 1} Task ${index + 1}\n`).join("")}`;
  return {
    path: "plan.md",
    read: async () => text,
    write: async (next) => {
      text = next;
    },
  };
}

/** A state store in a map, without a lock. */
function mapStore(): StateStore {
  const documents = new Map<string, string>();
  return {
    specificationVersion: "v1",
    get: async (terminal, key) => documents.get(`${terminal}/${key}`) ?? null,
    set: async (terminal, key, text) => {
      documents.set(`${terminal}/${key}`, text);
    },
    delete: async (terminal, key) => {
      documents.delete(`${terminal}/${key}`);
    },
  };
}

/** A clock that moves only when told to (`advance`); its sleeps end only when aborted. */
function manualClock(): Clock & { advance(ms: number): void } {
  let time = NOW;
  return {
    now: () => time,
    sleep: (_ms, signal) =>
      new Promise((resolve) => signal?.addEventListener("abort", () => resolve())),
    advance: (ms) => {
      time += ms;
    },
  };
}

describe("showEvents", () => {
  async function linesOf(results: ExecutionResult[]): Promise<string[]> {
    const clock = manualClock();
    const loop = createLoop({
      plan: memoryPlan(2),
      executor: {
        name: "scripted",
        specificationVersion: "v1",
        // Each agent run takes 64 seconds.
        execute: async () => {
          clock.advance(64_000);
          return results.shift() ?? { success: true, output: "" };
        },
      },
      store: mapStore(),
      clock,
      config: { limits: { max_iterations: 2 } },
    });
    const lines: string[] = [];
    showEvents(
      loop,
      { update: () => undefined, line: (text) => lines.push(text), finish: () => undefined },
      plain,
      () => clock.now(),
    );
    await loop.run();
    return lines;
  }

  it("ends each iteration's line with how long it took and what it cost", async () => {
    const lines = await linesOf([
      { success: true, output: "Worked on it.", costUsd: 0.12 },
      { success: false, output: "", error: "the agent crashed" },
    ]);
    expect(lines[0]).toBe("iteration 1: TASK-001 Task 1");
    expect(lines[1]).toBe("iteration 1 ended: 1m 04s · $0.12");
    expect(lines[2]).toBe("iteration 2: TASK-001 Task 1 (attempt 2)");
    expect(lines[3]).toBe("✗ iteration 2 failed after 1m 04s · cost unknown: the agent crashed");
  });
});

function result(overrides: Partial<LoopResult> = {}): LoopResult {
  return {
    exitReason: "max_iterations",
    complete: false,
    iterations: 2,
    totalIterations: 20,
    tasksCompleted: ["TASK-001"],
    tasksFailed: [],
    costUsd: 0,
    durationMs: 1000,
    state: LoopStateSchema.parse({
      current_task_id: "TASK-002",
      completed_tasks: ["TASK-001"],
      failed_tasks: [],
      completion_indicators: 0,
      loop_metadata: {
        plan_path: "plan.md",
        started_at: "2026-11-29T11:00:00Z",
        last_update: "2026-11-29T11:59:00Z",
        iterations: 20,
      },
    }),
    decision: null,
    error: null,
    ...overrides,
  };
}

describe("resultLine", () => {
  const config = resolveConfig({});

  it("says why a safety exit stopped the loop and what to do, under the summary", () => {
    expect(resultLine(result(), plain, { config, view: view(), now: NOW })).toBe(
      [
        "exit: max_iterations after 2 iterations · 1 task done · $0.00",
        "  20 of 20 iterations used over all runs; raise limits.max_iterations (or pass --max-iterations) or run `loop reset`",
      ].join("\n"),
    );
  });

  it("shows an unknown cost as unknown", () => {
    const line = resultLine(result(), plain, {
      config,
      view: view({ costReported: false, costUsd: 0 }),
      now: NOW,
    });
    expect(line.split("\n")[0]).toBe(
      "exit: max_iterations after 2 iterations · 1 task done · cost unknown",
    );
  });

  it("adds nothing to a completion, and the message to an error", () => {
    const done = result({ exitReason: "all_tasks_complete", complete: true, costUsd: 0.5 });
    expect(resultLine(done, plain, { config, view: view(), now: NOW })).toBe(
      "exit: all_tasks_complete after 2 iterations · 1 task done · $0.50",
    );
    const failed = result({ exitReason: "plan_error", error: new Error("plan.md:3:1 bad") });
    expect(resultLine(failed, plain, { config, view: view(), now: NOW }).split("\n")[1]).toBe(
      "plan.md:3:1 bad",
    );
  });
});

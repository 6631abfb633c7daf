import { createInitialState, type DecisionEvent, type LoopState } from "@loop/core";
import { describe, expect, it } from "vitest";
import { createStyle } from "../style.js";
import { type LoopListRow, projectOfPlan } from "./loop-list.js";
import { loopListLines } from "./loop-list-lines.js";

const now = Date.parse("2026-12-03T10:00:00.000Z");
const plain = createStyle({ write: () => true, isTTY: false }, {});

function state(run: NonNullable<LoopState["run"]>): LoopState {
  return {
    ...createInitialState({ planPath: "/srv/api/plan.md", now: "2026-12-03T09:00:00.000Z" }),
    run,
  };
}

const exitEvent = {
  terminal_id: "web",
  event: "loop_exit",
  timestamp: "2026-12-03T09:58:07.000Z",
  payload: { exit_reason: "all_tasks_complete", total_iterations: 2, total_tasks_completed: 2 },
} as unknown as DecisionEvent;

const rows: LoopListRow[] = [
  {
    terminalId: "api",
    project: "/srv/api",
    planPath: "/srv/api/plan.md",
    host: "build-1",
    state: state({
      run_id: "r1",
      started_at: "2026-12-03T09:00:00.000Z",
      status: "running",
      exit_reason: null,
      iterations_at_start: 0,
      cost_usd_at_start: 0,
    }),
    lock: {
      holder: { pid: 4242, host: "build-1", startedAt: "2026-12-03T09:00:00.000Z" },
      alive: true,
    },
    lastEvent: null,
    problem: null,
  },
  {
    terminalId: "web",
    project: "/home/me/web",
    planPath: "/home/me/web/plan.md",
    host: null,
    state: state({
      run_id: "r2",
      started_at: "2026-12-03T09:00:00.000Z",
      status: "exited",
      exit_reason: "all_tasks_complete",
      iterations_at_start: 0,
      cost_usd_at_start: 0,
    }),
    lock: null,
    lastEvent: exitEvent,
    problem: null,
  },
  {
    terminalId: "old",
    project: null,
    planPath: null,
    host: null,
    state: null,
    lock: null,
    lastEvent: null,
    problem: "loop_state: JSON syntax error at 1:2",
  },
];

describe("loopListLines", () => {
  it("lines the loops up under their headings, the last column as long as it is", () => {
    const lines = loopListLines(rows, "postgres://db/loops (schema loop)", plain, now);
    expect(lines[0]).toBe("loop status --all — 3 loops in postgres://db/loops (schema loop)");
    expect(lines.slice(1, 5)).toEqual([
      "  TERMINAL  PROJECT       HOST     STATE                       LAST EVENT (UTC)",
      "  api       /srv/api      build-1  running (pid 4242)          -",
      "  web       /home/me/web  -        exited: all_tasks_complete  09:58:07  loop_exit all_tasks_complete after 2 iterations, 2 tasks completed",
      "  old       -             -        unreadable                  -",
    ]);
    expect(lines[5]).toBe("note: old: loop_state: JSON syntax error at 1:2");
  });

  it("says how to start when the store has no loop", () => {
    expect(loopListLines([], "/p/.claude/loop/state", plain, now)).toEqual([
      "loop status --all — 0 loops in /p/.claude/loop/state",
      "No loop has state here yet. Start one with `loop run`.",
    ]);
  });
});

describe("projectOfPlan", () => {
  it("is the folder holding .claude/ for a plan inside it, else the plan's folder", () => {
    expect(projectOfPlan("/srv/api/.claude/plugin/ralph/prd.json")).toBe("/srv/api");
    expect(projectOfPlan("/srv/api/plan.md")).toBe("/srv/api");
    expect(projectOfPlan("")).toBeNull();
  });
});

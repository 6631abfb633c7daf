import { describe, expect, it } from "vitest";
import { keptListJson, keptListLines } from "./kept-list-lines.js";
import { keptRows } from "./kept-rows.js";

const NOW = Date.parse("2026-03-14T12:00:00.000Z");
const KEPT = [
  { taskId: "TASK-1", branch: "loop/kept/TASK-1-aa/1", keptAt: NOW - 3_600_000, commits: 1 },
  { taskId: "TASK-3", branch: "loop/kept/TASK-3-bb/1", keptAt: NOW - 2 * 86_400_000, commits: 12 },
  { taskId: "GONE", branch: "loop/kept/GONE-cc/1", keptAt: 0, commits: 2 },
  { taskId: "TASK-4", branch: "loop/kept/TASK-4-dd/1", keptAt: NOW, commits: 0 },
];
const TASKS = [
  { id: "TASK-1", title: "Add module 1", done: true },
  { id: "TASK-3", title: "Add module 3", done: false },
  { id: "TASK-4", title: "Add module 4", done: false },
];

describe("keptRows", () => {
  it("says where each kept branch's task stands: done, given up, open or not in the plan", () => {
    const rows = keptRows(KEPT, TASKS, ["TASK-3", "TASK-1"]);
    expect(rows.map((row) => [row.taskId, row.status, row.title])).toEqual([
      ["TASK-1", "done", "Add module 1"],
      ["TASK-3", "given up", "Add module 3"],
      ["GONE", "not in plan", null],
      ["TASK-4", "open", "Add module 4"],
    ]);
    expect(rows.map((row) => row.keptAt)).toEqual([
      NOW - 3_600_000,
      NOW - 2 * 86_400_000,
      null,
      NOW,
    ]);
  });
});

describe("keptListLines", () => {
  it("lays the branches out in aligned columns, times in UTC, commits right-aligned", () => {
    expect(keptListLines(keptRows(KEPT, TASKS, ["TASK-3"]), NOW)).toEqual([
      "  branch                 task    status       kept (UTC)        commits  title",
      "  loop/kept/TASK-1-aa/1  TASK-1  done         11:00:00                1  Add module 1",
      "  loop/kept/TASK-3-bb/1  TASK-3  given up     2026-03-12 12:00       12  Add module 3",
      "  loop/kept/GONE-cc/1    GONE    not in plan  ?                       2",
      "  loop/kept/TASK-4-dd/1  TASK-4  open         12:00:00                0  Add module 4",
    ]);
  });

  it("is only the header without kept work", () => {
    expect(keptListLines([], NOW)).toEqual(["  branch  task  status  kept (UTC)  commits  title"]);
  });
});

describe("keptListJson", () => {
  it("gives times as ISO 8601 and an unknown one as null", () => {
    const place = { repository: "/p", plan: "/p/plan.md", terminalId: "default" };
    const json = keptListJson(keptRows(KEPT.slice(1, 3), TASKS, []), place);
    expect(json).toEqual({
      ...place,
      kept: [
        {
          branch: "loop/kept/TASK-3-bb/1",
          taskId: "TASK-3",
          title: "Add module 3",
          status: "open",
          keptAt: "2026-03-12T12:00:00.000Z",
          commits: 12,
        },
        {
          branch: "loop/kept/GONE-cc/1",
          taskId: "GONE",
          title: null,
          status: "not in plan",
          keptAt: null,
          commits: 2,
        },
      ],
    });
  });
});

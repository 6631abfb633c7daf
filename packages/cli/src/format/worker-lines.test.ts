import type { WorkerRecord } from "@loop/core";
import { describe, expect, it } from "vitest";
import { workerLines } from "./worker-lines.js";

const now = Date.parse("2026-12-02T10:05:00.000Z");

function worker(taskId: string, fields: Partial<WorkerRecord> = {}): WorkerRecord {
  return {
    task_id: taskId,
    branch: `loop/${taskId}`,
    path: `/repo/.loop/worktrees/${taskId}`,
    iteration: 3,
    attempt: 1,
    started_at: "2026-12-02T10:02:48.000Z",
    ...fields,
  };
}

describe("workerLines", () => {
  it("shows each worker's task, time, attempt and branch, the ids lined up", () => {
    expect(workerLines([worker("T-1"), worker("TASK-12", { attempt: 2 })], now)).toEqual([
      "T-1       2m 12s  attempt 1  loop/T-1",
      "TASK-12   2m 12s  attempt 2  loop/TASK-12",
    ]);
  });

  it("says which worker's work a merge agent is resolving", () => {
    const merging = worker("T-2", {
      merge_process: {
        token: "a".repeat(32),
        command: "claude",
        host: "box",
        iteration: 3,
        started_at: "2026-12-02T10:04:00.000Z",
      },
    });
    expect(workerLines([worker("T-1"), merging], now)[1]).toBe(
      "T-2   2m 12s  attempt 1  loop/T-2  merging",
    );
  });

  it("shows nothing when no worker runs", () => {
    expect(workerLines(undefined, now)).toEqual([]);
  });
});

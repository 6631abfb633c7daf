import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStatusFile, type Status, type StatusFile } from "@loop/fs";
import { afterEach, describe, expect, it } from "vitest";
import type { RunView } from "./run-tracker.js";
import { createStatusWriter, statusOf } from "./status-writer.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A real status file in a new folder, counting the writes that reach it. */
function countedFile(): { file: StatusFile; writes: Status[] } {
  const folder = mkdtempSync(join(tmpdir(), "loop-status-writer-"));
  folders.push(folder);
  const real = createStatusFile({ path: join(folder, "status.json") });
  const writes: Status[] = [];
  const file: StatusFile = {
    path: real.path,
    read: () => real.read(),
    write: (status) => {
      writes.push(status);
      return real.write(status);
    },
  };
  return { file, writes };
}

const view: RunView = {
  iteration: 1,
  task: { id: "TASK-1", title: "one" },
  tasksDone: 0,
  tasksTotal: 2,
  callsThisHour: 1,
  maxCallsPerHour: 100,
  costUsd: 0,
  costReported: false,
  iterationStartedAt: null,
  wait: null,
  lastAction: "executing",
};
const context = { terminalId: "t", planPath: "plan.md" };
const at = (iteration: number) => statusOf({ ...view, iteration }, context, Date.UTC(2026, 0, 1));

describe("createStatusWriter", () => {
  it("writes the latest of the statuses given in one turn, once; every call resolves once it is on disk", async () => {
    const { file, writes } = countedFile();
    const write = createStatusWriter(file, () => undefined, { minIntervalMs: 0 });
    const first = write(at(1));
    const second = write(at(2));
    // Nothing is written in the caller's turn.
    expect(writes).toHaveLength(0);
    await Promise.all([first, second]);
    expect(writes.map((status) => status.loop_count)).toEqual([2]);
    expect(JSON.parse(readFileSync(file.path, "utf8")).loop_count).toBe(2);
    // A later turn's status is written too.
    await write(at(3));
    expect(writes.map((status) => status.loop_count)).toEqual([2, 3]);
    expect(JSON.parse(readFileSync(file.path, "utf8")).loop_count).toBe(3);
  });

  it("writes at most once an interval: statuses given sooner wait for its end, and the latest is written", async () => {
    const { file, writes } = countedFile();
    let clock = 1_000;
    const timers: { at: number; task: () => void; cancelled: boolean }[] = [];
    const write = createStatusWriter(file, () => undefined, {
      minIntervalMs: 100,
      now: () => clock,
      schedule: (task, ms) => {
        const timer = { at: clock + ms, task, cancelled: false };
        timers.push(timer);
        return () => {
          timer.cancelled = true;
        };
      },
    });
    const elapse = (ms: number) => {
      clock += ms;
      for (const timer of timers.splice(0)) {
        if (timer.cancelled) continue;
        if (timer.at <= clock) timer.task();
        else timers.push(timer);
      }
    };
    await write(at(1));
    expect(writes.map((status) => status.loop_count)).toEqual([1]);
    // 30 ms later: within the interval, so it waits, and newer statuses replace it.
    elapse(30);
    const second = write(at(2));
    const third = write(at(3));
    await Promise.resolve();
    elapse(30);
    const fourth = write(at(4));
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes.map((status) => status.loop_count)).toEqual([1]);
    // The interval is over (100 ms after the first write began): the latest is written, once.
    elapse(40);
    await Promise.all([second, third, fourth]);
    expect(writes.map((status) => status.loop_count)).toEqual([1, 4]);
    // One given long after the last write goes at once.
    elapse(500);
    await write(at(5));
    expect(writes.map((status) => status.loop_count)).toEqual([1, 4, 5]);
    expect(JSON.parse(readFileSync(file.path, "utf8")).loop_count).toBe(5);
  });

  it("writes a status given `immediately` without waiting for the interval, with any waiting one", async () => {
    const { file, writes } = countedFile();
    const clock = 1_000;
    const scheduled: (() => void)[] = [];
    const write = createStatusWriter(file, () => undefined, {
      minIntervalMs: 100,
      now: () => clock,
      schedule: (task) => {
        scheduled.push(task);
        return () => undefined;
      },
    });
    await write(at(1));
    const waiting = write(at(2));
    // The run's last status: written now, in the place of the waiting one.
    await Promise.all([write(at(3), { immediately: true }), waiting]);
    expect(writes.map((status) => status.loop_count)).toEqual([1, 3]);
    // The waiting one's timer, when it fires, writes nothing more.
    for (const task of scheduled) task();
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes.map((status) => status.loop_count)).toEqual([1, 3]);
  });

  it("reports the first failure only, and never rejects", async () => {
    const failures: unknown[] = [];
    const file: StatusFile = {
      path: "/nowhere/status.json",
      read: async () => null,
      write: async () => {
        throw new Error("EACCES");
      },
    };
    const write = createStatusWriter(file, (error) => failures.push(error), { minIntervalMs: 0 });
    await write(at(1));
    await write(at(2));
    expect(failures).toHaveLength(1);
  });
});

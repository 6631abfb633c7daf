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
    const write = createStatusWriter(file, () => undefined);
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

  it("reports the first failure only, and never rejects", async () => {
    const failures: unknown[] = [];
    const file: StatusFile = {
      path: "/nowhere/status.json",
      read: async () => null,
      write: async () => {
        throw new Error("EACCES");
      },
    };
    const write = createStatusWriter(file, (error) => failures.push(error));
    await write(at(1));
    await write(at(2));
    expect(failures).toHaveLength(1);
  });
});

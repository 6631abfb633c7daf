import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isProcessAlive } from "./process-alive.js";

/** The pid of a process that has exited and been reaped. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ["-e", ""]);
  if (pid === undefined) throw new Error("could not start a child process");
  return pid;
}

describe("isProcessAlive", () => {
  it("sees this process and its parent alive", () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(process.ppid)).toBe(true);
  });

  it("sees an exited process as gone", () => {
    expect(isProcessAlive(deadPid())).toBe(false);
  });

  it("refuses ids that cannot name one process (0 and negatives are process groups)", () => {
    for (const pid of [0, -1, -process.pid, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) {
      expect(isProcessAlive(pid), String(pid)).toBe(false);
    }
  });
});

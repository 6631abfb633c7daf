import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
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

  it.skipIf(!existsSync("/proc/self/stat"))(
    "sees a zombie (exited, never reaped) as gone, so it cannot hold a lock for good",
    async () => {
      // `sleep 5` becomes the parent of the exited `sleep 0`, and never reaps it.
      const parent = spawn("sh", ["-c", "sleep 0 & echo $!; exec sleep 5"], {
        stdio: ["ignore", "pipe", "ignore"],
      });
      try {
        const zombie = await new Promise<number>((resolve) =>
          parent.stdout.once("data", (chunk: Buffer) => resolve(Number(String(chunk).trim()))),
        );
        const deadline = Date.now() + 5_000;
        while (isProcessAlive(zombie) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(isProcessAlive(zombie)).toBe(false);
        expect(isProcessAlive(parent.pid ?? 0)).toBe(true);
      } finally {
        parent.kill("SIGKILL");
      }
    },
  );

  it("refuses ids that cannot name one process (0 and negatives are process groups)", () => {
    for (const pid of [0, -1, -process.pid, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) {
      expect(isProcessAlive(pid), String(pid)).toBe(false);
    }
  });
});

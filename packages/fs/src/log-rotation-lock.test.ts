import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withRotationLock } from "./log-rotation-lock.js";

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "loop-rotation-lock-"));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const fast = { waitMs: 200, staleMs: 10_000, pollMs: 2 };

describe("withRotationLock", () => {
  it("runs the action holding a lock file that names this process, then removes it", async () => {
    const lockPath = join(directory, "decision.log.lock");
    let holder: unknown;
    const ran = await withRotationLock(lockPath, async () => {
      holder = JSON.parse(await readFile(lockPath, "utf8"));
    });
    expect(ran).toBe(true);
    expect(holder).toMatchObject({ pid: process.pid, host: expect.any(String) });
    expect(await readdir(directory)).toEqual([]);
  });

  it("runs one action at a time", async () => {
    const lockPath = join(directory, "decision.log.lock");
    let running = 0;
    let most = 0;
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        withRotationLock(
          lockPath,
          async () => {
            running += 1;
            most = Math.max(most, running);
            await new Promise((resolve) => setTimeout(resolve, 5));
            running -= 1;
          },
          { ...fast, waitMs: 5_000 },
        ),
      ),
    );
    expect(results).toEqual(Array(8).fill(true));
    expect(most).toBe(1);
  });

  it("gives up after waitMs while another process holds the lock, without running the action", async () => {
    const lockPath = join(directory, "decision.log.lock");
    await writeFile(lockPath, '{"pid":1}\n');
    let ran = false;
    const started = Date.now();
    const result = await withRotationLock(
      lockPath,
      async () => {
        ran = true;
      },
      fast,
    );
    expect(result).toBe(false);
    expect(ran).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(fast.waitMs - 5);
    expect(await readdir(directory)).toEqual(["decision.log.lock"]);
  });

  it("takes over a lock older than staleMs", async () => {
    const lockPath = join(directory, "decision.log.lock");
    await writeFile(lockPath, '{"pid":1}\n');
    const longAgo = new Date(Date.now() - 60_000);
    await utimes(lockPath, longAgo, longAgo);
    expect(await withRotationLock(lockPath, async () => undefined, fast)).toBe(true);
    expect(await readdir(directory)).toEqual([]);
  });

  it("releases the lock when the action fails", async () => {
    const lockPath = join(directory, "decision.log.lock");
    await expect(
      withRotationLock(lockPath, async () => {
        throw new Error("rename failed");
      }),
    ).rejects.toThrow("rename failed");
    expect(await readdir(directory)).toEqual([]);
  });
});

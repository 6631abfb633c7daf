import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import type { LockHolder } from "@loop/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireFileLock, type FileLock, type FileLockAttempt } from "./file-lock.js";
import { formatLockHolder, parseLockHolder } from "./file-lock-holder.js";

let directory: string;
let lockPath: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "loop-file-lock-"));
  lockPath = join(directory, ".lock");
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** The pid of a process that has exited and been reaped (started once: starting node is slow). */
let exitedPid: number | undefined;
function deadPid(): number {
  exitedPid ??= spawnSync(process.execPath, ["-e", ""]).pid;
  if (exitedPid === undefined) throw new Error("could not start a child process");
  return exitedPid;
}

/** Sets a file's modification time `ageMs` into the past. */
async function age(path: string, ageMs: number): Promise<void> {
  const then = new Date(Date.now() - ageMs);
  await utimes(path, then, then);
}

function acquired(attempt: FileLockAttempt): FileLock {
  if (!attempt.acquired) throw new Error(`expected the lock, held by pid ${attempt.holder.pid}`);
  return attempt.lock;
}

const hour = 60 * 60 * 1000;

describe("acquireFileLock", () => {
  it("creates the lock file naming this process, and release removes it", async () => {
    const before = Date.now();
    const lock = acquired(await acquireFileLock(lockPath));
    expect(lock.takenOverFrom).toBeNull();
    expect(lock.holder).toEqual({
      pid: process.pid,
      host: hostname(),
      startedAt: expect.any(String),
    });
    expect(Date.parse(lock.holder.startedAt)).toBeGreaterThanOrEqual(before - 1000);
    const text = await readFile(lockPath, "utf8");
    expect(text).toBe(formatLockHolder(lock.holder));
    expect(JSON.parse(text)).toEqual(lock.holder);
    expect(await readdir(directory)).toEqual([".lock"]);
    await lock.release();
    await lock.release();
    expect(await readdir(directory)).toEqual([]);
  });

  it("reports a live holder at once (itself included: not re-entrant)", async () => {
    const lock = acquired(await acquireFileLock(lockPath));
    const started = Date.now();
    const second = await acquireFileLock(lockPath);
    expect(Date.now() - started).toBeLessThan(2000); // no waiting: a live holder is final
    expect(second).toEqual({ acquired: false, holder: lock.holder });
    await lock.release();
    acquired(await acquireFileLock(lockPath));
  });

  it("reports a stale holder whose start time is not a time with the lock file's own time", async () => {
    const stale = { pid: deadPid(), host: hostname(), startedAt: "yesterday" };
    await writeFile(lockPath, formatLockHolder(stale));
    const modified = new Date("2026-02-03T04:05:06.000Z");
    await utimes(lockPath, modified, modified);
    const lock = acquired(await acquireFileLock(lockPath));
    expect(lock.takenOverFrom).toEqual({ ...stale, startedAt: modified.toISOString() });
  });

  it("takes over the lock of a process that is gone, reporting it", async () => {
    const stale: LockHolder = {
      pid: deadPid(),
      host: hostname(),
      startedAt: "2026-01-01T00:00:00Z",
    };
    await writeFile(lockPath, formatLockHolder(stale));
    const lock = acquired(await acquireFileLock(lockPath));
    expect(lock.takenOverFrom).toEqual(stale);
    expect(parseLockHolder(await readFile(lockPath, "utf8"))).toEqual(lock.holder);
    expect(await readdir(directory)).toEqual([".lock"]);
  });

  it("treats a live pid on this host as live however old its lock", async () => {
    const live: LockHolder = {
      pid: process.ppid,
      host: hostname(),
      startedAt: "2020-01-01T00:00:00Z",
    };
    await writeFile(lockPath, formatLockHolder(live));
    await age(lockPath, 1000 * hour);
    expect(await acquireFileLock(lockPath)).toEqual({ acquired: false, holder: live });
  });

  it("treats another host's lock as live until it is older than the maximum age", async () => {
    const remote: LockHolder = {
      pid: deadPid(),
      host: "elsewhere.invalid",
      startedAt: "2026-01-01T00:00:00Z",
    };
    await writeFile(lockPath, formatLockHolder(remote));
    await age(lockPath, 23 * hour);
    expect(await acquireFileLock(lockPath)).toEqual({ acquired: false, holder: remote });
    expect(await acquireFileLock(lockPath, { otherHostMaxAgeMs: hour })).toMatchObject({
      acquired: true,
      lock: { takenOverFrom: remote },
    });
  });

  it("takes over a lock older than 24 hours on another host by default", async () => {
    const remote: LockHolder = {
      pid: 1,
      host: "elsewhere.invalid",
      startedAt: "2026-01-01T00:00:00Z",
    };
    await writeFile(lockPath, formatLockHolder(remote));
    await age(lockPath, 25 * hour);
    expect(acquired(await acquireFileLock(lockPath)).takenOverFrom).toEqual(remote);
  });

  it("waits out the grace period of an unreadable lock, then takes it over", async () => {
    await writeFile(lockPath, '{"pid": 12');
    const started = Date.now();
    const lock = acquired(await acquireFileLock(lockPath, { unreadableGraceMs: 200 }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(lock.takenOverFrom).toMatchObject({ pid: 0, host: "unknown" });
  });

  it("takes over an old unreadable lock without waiting", async () => {
    for (const text of ["", "garbage", "null", '{"pid":-4,"host":"h","startedAt":"t"}']) {
      await writeFile(lockPath, text);
      await age(lockPath, 5000);
      const lock = acquired(await acquireFileLock(lockPath));
      expect(lock.takenOverFrom?.pid, JSON.stringify(text)).toBe(0);
      await lock.release();
    }
  });

  it("sees an unreadable lock completed during the grace period as the live lock it is", async () => {
    await writeFile(lockPath, "");
    const live: LockHolder = {
      pid: process.ppid,
      host: hostname(),
      startedAt: "2026-01-01T00:00:00Z",
    };
    setTimeout(() => void writeFile(lockPath, formatLockHolder(live)), 50);
    expect(await acquireFileLock(lockPath, { unreadableGraceMs: 2000 })).toEqual({
      acquired: false,
      holder: live,
    });
  });

  it("gives a stale lock to exactly one of many concurrent contenders", async () => {
    for (let round = 0; round < 10; round += 1) {
      const stale: LockHolder = { pid: deadPid(), host: hostname(), startedAt: `round ${round}` };
      await writeFile(lockPath, formatLockHolder(stale));
      const attempts = await Promise.all(
        Array.from({ length: 12 }, () => acquireFileLock(lockPath)),
      );
      const winners = attempts.flatMap((attempt) => (attempt.acquired ? [attempt.lock] : []));
      expect(winners).toHaveLength(1);
      const winner = winners[0] as FileLock;
      expect(winner.takenOverFrom).toEqual(stale);
      for (const attempt of attempts) {
        if (!attempt.acquired) expect(attempt.holder).toEqual(winner.holder);
      }
      expect(parseLockHolder(await readFile(lockPath, "utf8"))).toEqual(winner.holder);
      await winner.release();
      expect(await readdir(directory)).toEqual([]);
    }
  });

  it("removes a takeover guard left by a crashed process: old, or its writer gone", async () => {
    const stale = formatLockHolder({ pid: deadPid(), host: hostname(), startedAt: "t" });
    const guard = `${lockPath}.takeover`;
    await writeFile(lockPath, stale);
    await writeFile(
      guard,
      formatLockHolder({ pid: process.ppid, host: hostname(), startedAt: "t" }),
    );
    await age(guard, 60_000);
    (await acquireFileLock(lockPath).then(acquired)).release();
    await writeFile(lockPath, stale);
    await writeFile(guard, stale);
    const started = Date.now();
    acquired(await acquireFileLock(lockPath));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await readdir(directory)).toEqual([".lock"]);
  });

  it("waits for a young takeover guard of a live process", async () => {
    const guard = `${lockPath}.takeover`;
    await writeFile(
      lockPath,
      formatLockHolder({ pid: deadPid(), host: hostname(), startedAt: "t" }),
    );
    await writeFile(
      guard,
      formatLockHolder({ pid: process.ppid, host: hostname(), startedAt: "t" }),
    );
    setTimeout(() => void rm(guard), 100);
    const started = Date.now();
    acquired(await acquireFileLock(lockPath));
    expect(Date.now() - started).toBeGreaterThanOrEqual(80);
  });

  it("release leaves a lock that is no longer its own", async () => {
    const lock = acquired(await acquireFileLock(lockPath));
    const other = formatLockHolder({ pid: process.ppid, host: hostname(), startedAt: "later" });
    await writeFile(lockPath, other);
    await lock.release();
    expect(await readFile(lockPath, "utf8")).toBe(other);
  });

  it("release of a lock whose file is gone does nothing", async () => {
    const lock = acquired(await acquireFileLock(lockPath));
    await rm(lockPath);
    await lock.release();
    expect(await readdir(directory)).toEqual([]);
  });

  it("throws the signal's reason when aborted", async () => {
    const reason = new Error("stop");
    await expect(acquireFileLock(lockPath, { signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
    await writeFile(lockPath, "");
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 50);
    await expect(
      acquireFileLock(lockPath, { signal: controller.signal, unreadableGraceMs: 5000 }),
    ).rejects.toBe(reason);
  });

  it("cleans temporary lock files of crashed processes", async () => {
    const leftover = join(directory, `..lock.${deadPid()}.0123456789ab.tmp`);
    await writeFile(leftover, "x");
    const lock = acquired(await acquireFileLock(lockPath));
    expect(await readdir(directory)).toEqual([".lock"]);
    await lock.release();
  });
});

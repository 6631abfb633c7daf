import { hostname } from "node:os";
import { type LockHolder, StateLockedError, StateStoreError } from "@loop/core";
import { testStateStore } from "@loop/test-suite";
import { describe, expect, it } from "vitest";
import { MemoryStateStore } from "./memory-state-store.js";

testStateStore({
  name: "MemoryStateStore",
  create: () => new MemoryStateStore(),
  inspect: async (store, terminalId, key, version) =>
    store.documents.get(terminalId)?.get(key)?.[version] ?? null,
  corrupt: async (store, terminalId, key, text) => {
    const terminal = store.documents.get(terminalId) ?? new Map();
    terminal.set(key, { current: text, backup: terminal.get(key)?.backup ?? null });
    store.documents.set(terminalId, terminal);
  },
  // With the default liveness check: the suite's stale holder has a pid no process can have.
  plantStaleLock: async (store, terminalId, holder) => {
    store.locks.set(terminalId, holder);
  },
  // The parent process (the test runner) is alive, and is not this process.
  plantLiveLock: async (store, terminalId) => {
    const holder: LockHolder = {
      pid: process.ppid,
      host: hostname(),
      startedAt: new Date(0).toISOString(),
    };
    store.locks.set(terminalId, holder);
    return holder;
  },
});

describe("MemoryStateStore", () => {
  it("shows every document, current and backup, in snapshot()", async () => {
    const store = new MemoryStateStore();
    await store.set("one", "loop_state", "first");
    await store.set("one", "loop_state", "second");
    await store.set("two", "loop_metrics", "metrics");
    expect(store.snapshot()).toEqual({
      one: { loop_state: { current: "second", backup: "first" } },
      two: { loop_metrics: { current: "metrics", backup: null } },
    });
  });

  it("returns a copy from snapshot(), and keeps no empty terminal after a delete", async () => {
    const store = new MemoryStateStore();
    await store.set("one", "loop_state", "first");
    const snapshot = store.snapshot();
    await store.delete("one", "loop_state");
    expect(snapshot).toEqual({ one: { loop_state: { current: "first", backup: null } } });
    expect(store.snapshot()).toEqual({});
    expect(store.documents.size).toBe(0);
  });

  it("keeps a terminal named __proto__ as a plain key of the snapshot", async () => {
    const store = new MemoryStateStore();
    await store.set("__proto__", "loop_state", "text");
    const snapshot = store.snapshot();
    expect(Object.getPrototypeOf(snapshot)).toBe(Object.prototype);
    expect(Object.keys(snapshot)).toEqual(["__proto__"]);
  });

  it("writes nothing for an unsafe terminal id", async () => {
    const store = new MemoryStateStore();
    await expect(store.set("../escape", "loop_state", "text")).rejects.toSatisfy(
      StateStoreError.isInstance,
    );
    expect(store.documents.size).toBe(0);
  });

  it("rejects a text that is not a string, and an unknown version", async () => {
    const store = new MemoryStateStore();
    await expect(store.set("one", "loop_state", 42 as unknown as string)).rejects.toThrow(
      TypeError,
    );
    await expect(store.get("one", "loop_state", "previous" as "backup")).rejects.toThrow(
      /"current" or "backup"/,
    );
  });

  it("stamps the lock with this process, this host and the injected clock", async () => {
    const store = new MemoryStateStore({ now: () => new Date("2026-03-14T10:00:00.000Z") });
    const lock = await store.lock("one");
    expect(lock.holder).toEqual({
      pid: process.pid,
      host: hostname(),
      startedAt: "2026-03-14T10:00:00.000Z",
    });
    expect(store.locks.get("one")).toBe(lock.holder);
    await lock.release();
    expect(store.locks.size).toBe(0);
  });

  it("asks the injected isProcessAlive whether a holder is gone", async () => {
    const gone = new Set<number>();
    const store = new MemoryStateStore({ isProcessAlive: (holder) => !gone.has(holder.pid) });
    const planted = { pid: 4242, host: "elsewhere", startedAt: "2026-01-01T00:00:00.000Z" };
    store.locks.set("one", planted);
    await expect(store.lock("one")).rejects.toSatisfy(StateLockedError.isInstance);
    gone.add(4242);
    const lock = await store.lock("one");
    expect(lock.takenOverFrom).toBe(planted);
  });

  it("by default takes no lock from another host, and takes over a pid that names no process", async () => {
    const store = new MemoryStateStore();
    store.locks.set("remote", { pid: 99_999_999, host: `not-${hostname()}`, startedAt: "x" });
    await expect(store.lock("remote")).rejects.toSatisfy(StateLockedError.isInstance);
    const invalid = { pid: 0, host: hostname(), startedAt: "x" };
    store.locks.set("invalid", invalid);
    expect((await store.lock("invalid")).takenOverFrom).toBe(invalid);
  });

  it("leaves a lock taken over since in place when the old holder releases", async () => {
    let alive = true;
    const store = new MemoryStateStore({ isProcessAlive: () => alive });
    const first = await store.lock("one");
    alive = false;
    const second = await store.lock("one");
    expect(second.takenOverFrom).toBe(first.holder);
    await first.release();
    expect(store.locks.get("one")).toBe(second.holder);
  });

  it("checks its options", () => {
    expect(() => new MemoryStateStore(null)).not.toThrow();
    expect(
      () => new MemoryStateStore({ isProcessAlive: true as unknown as () => boolean }),
    ).toThrow("Option `isProcessAlive` must be a function, got boolean");
    expect(() => new MemoryStateStore({ now: "today" as unknown as () => Date })).toThrow(
      "Option `now` must be a function, got string",
    );
  });
});

import { hostname } from "node:os";
import { type LockHolder, type StateLock, StateLockedError, type StateStore } from "@loop/core";
import { assert, expect, it } from "vitest";
import { rejectionOf } from "./rejection-of.js";
import type { SuiteContext } from "./suite-context.js";

/**
 * The holder of a planted stale lock: this host, and a pid above every platform's pid limit
 * (Linux at most 4 194 304, macOS 99 999), so no process can have it.
 */
const staleHolder: LockHolder = {
  pid: 99_999_999,
  host: hostname(),
  startedAt: "2001-02-03T04:05:06.000Z",
};

/** The store's `lock`, bound, or a test failure for a store that lost it. */
function lockOf(store: StateStore): (terminalId: string) => Promise<StateLock> {
  const lock = store.lock?.bind(store);
  if (lock === undefined) return assert.fail("The store had a lock method when the suite started");
  return lock;
}

/** Asserts that `error` is a StateLockedError for `terminalId` naming `holder`. */
function expectLockedBy(error: unknown, terminalId: string, holder: LockHolder): void {
  expect(StateLockedError.isInstance(error), `a StateLockedError, got ${String(error)}`).toBe(true);
  const locked = error as StateLockedError;
  expect(locked.terminalId).toBe(terminalId);
  expect(locked.holder).toEqual(holder);
  expect(locked.message).toContain(String(holder.pid));
}

/**
 * Registers the tests of `lock` (for stores that have it): exclusive per terminal, released
 * idempotently, a live holder refused by name, a stale one taken over and reported.
 *
 * @param context - the suite's options and the running test's store.
 */
export function registerLockTests<Store extends StateStore>(context: SuiteContext<Store>): void {
  const { options } = context;

  it("takes a free lock for this process", async () => {
    const lock = await lockOf(context.store())("conformance");
    expect(lock.takenOverFrom).toBeNull();
    expect(lock.holder.pid).toBe(process.pid);
    expect(lock.holder.host).toBe(hostname());
    expect(Number.isNaN(Date.parse(lock.holder.startedAt)), lock.holder.startedAt).toBe(false);
    await lock.release();
  });

  it("is exclusive: a second lock on the terminal throws StateLockedError naming the holder", async () => {
    const lock = lockOf(context.store());
    const first = await lock("conformance");
    const error = await rejectionOf(() => lock("conformance"), "a second lock");
    expectLockedBy(error, "conformance", first.holder);
    await first.release();
  });

  it("locks terminals independently", async () => {
    const lock = lockOf(context.store());
    const first = await lock("one");
    const second = await lock("two");
    expect(second.takenOverFrom).toBeNull();
    await Promise.all([first.release(), second.release()]);
  });

  it("releases idempotently, and a released terminal can be locked again", async () => {
    const lock = lockOf(context.store());
    const first = await lock("conformance");
    await first.release();
    await expect(first.release()).resolves.toBeUndefined();
    const again = await lock("conformance");
    expect(again.takenOverFrom).toBeNull();
    await first.release();
    const error = await rejectionOf(() => lock("conformance"), "a lock after a stale release");
    expectLockedBy(error, "conformance", again.holder);
    await again.release();
  });

  it("refuses a lock held by another live process, naming it", async () => {
    const store = context.store();
    const lock = lockOf(store);
    if (options.plantLiveLock === undefined) return missingHook("plantLiveLock");
    const holder = await options.plantLiveLock(store, "conformance");
    expectLockedBy(await rejectionOf(() => lock("conformance"), "lock"), "conformance", holder);
    expectLockedBy(await rejectionOf(() => lock("conformance"), "lock"), "conformance", holder);
    const other = await lock("other");
    await other.release();
  });

  it("takes over a stale lock and reports its holder in takenOverFrom", async () => {
    const store = context.store();
    const lock = lockOf(store);
    if (options.plantStaleLock === undefined) return missingHook("plantStaleLock");
    await options.plantStaleLock(store, "conformance", staleHolder);
    const taken = await lock("conformance");
    expect(taken.takenOverFrom).toEqual(staleHolder);
    expect(taken.holder.pid).toBe(process.pid);
    const error = await rejectionOf(() => lock("conformance"), "a lock after the takeover");
    expectLockedBy(error, "conformance", taken.holder);
    await taken.release();
    const again = await lock("conformance");
    expect(again.takenOverFrom).toBeNull();
    await again.release();
  });
}

/** Fails a lock test whose plant hook is missing (the suite's start checks it is there). */
function missingHook(name: string): never {
  return assert.fail(`Missing required option \`${name}\` (the store has a lock method)`);
}

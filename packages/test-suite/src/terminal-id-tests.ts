import { type StateStore, StateStoreError } from "@loop/core";
import { expect, it } from "vitest";
import { rejectionOf } from "./rejection-of.js";
import type { SuiteContext } from "./suite-context.js";

/** A terminal id for the tests, with a name that says what is special about it. */
interface NamedTerminalId {
  /** Shown in the test name. */
  readonly name: string;
  /** The id. */
  readonly id: string;
}

/** Ids outside the rule: 1 to 64 of `[A-Za-z0-9._-]`, not `.` or `..`, not starting with `.`. */
const unsafeTerminalIds: readonly NamedTerminalId[] = [
  { name: "../x (parent directory)", id: "../x" },
  { name: "a/b (slash)", id: "a/b" },
  { name: "a\\b (backslash)", id: "a\\b" },
  { name: ".. (parent directory)", id: ".." },
  { name: ". (this directory)", id: "." },
  { name: ".hidden (leading dot)", id: ".hidden" },
  { name: "the empty id", id: "" },
  { name: "a NUL character", id: "a\u0000b" },
  { name: "65 characters", id: "a".repeat(65) },
  { name: "200 characters", id: "a".repeat(200) },
];

/** Ids inside the rule, which every store must accept. */
const safeTerminalIds: readonly NamedTerminalId[] = [
  { name: "default", id: "default" },
  { name: "term_001", id: "term_001" },
  { name: "A-z.0_9- (every kind of character)", id: "A-z.0_9-" },
  { name: "64 characters", id: "a".repeat(64) },
];

/** Terminals whose documents an unsafe id could reach (`../x`, `a/b`, `a\0b`). */
const siblings = ["a", "b", "x"];

const key = "loop_state";

/**
 * Registers the tests that a store accepts only safe terminal ids, rejects every other with a
 * `StateStoreError` in every method, and writes nothing for them.
 *
 * @param context - the suite's options and the running test's store.
 */
export function registerTerminalIdTests<Store extends StateStore>(
  context: SuiteContext<Store>,
): void {
  it.each(unsafeTerminalIds)("rejects $name in every method and writes nothing", async ({ id }) => {
    const store = context.store();
    for (const sibling of siblings) await store.set(sibling, key, `sibling ${sibling}`);

    const calls: Record<string, () => Promise<unknown>> = {
      set: () => store.set(id, key, "intruder"),
      get: () => store.get(id, key),
      "get backup": () => store.get(id, key, "backup"),
      delete: () => store.delete(id, key),
    };
    const lock = store.lock?.bind(store);
    if (lock !== undefined) calls.lock = () => lock(id);
    for (const [method, call] of Object.entries(calls)) {
      const error = await rejectionOf(call, `${method} with terminal id ${JSON.stringify(id)}`);
      expect(StateStoreError.isInstance(error), `${method} throws a StateStoreError`).toBe(true);
    }

    for (const sibling of siblings) {
      expect(await context.inspect(sibling, key, "current")).toBe(`sibling ${sibling}`);
      expect(await context.inspect(sibling, key, "backup")).toBeNull();
    }
  });

  it.each(safeTerminalIds)("accepts the safe terminal id $name", async ({ id }) => {
    const store = context.store();
    await store.set(id, key, `text of ${id}`);
    expect(await store.get(id, key)).toBe(`text of ${id}`);
    expect(await context.inspect(id, key, "current")).toBe(`text of ${id}`);
    await store.delete(id, key);
    expect(await store.get(id, key)).toBeNull();
  });
}

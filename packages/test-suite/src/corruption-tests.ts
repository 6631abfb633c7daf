import type { StateStore } from "@loop/core";
import { expect, it } from "vitest";
import type { SuiteContext } from "./suite-context.js";

const terminal = "conformance";
const key = "loop_state";

/** Corrupt texts a crash or a disk can leave behind. */
const corruptTexts = [
  { name: "truncated JSON", text: '{"status": "running", "iter' },
  { name: "an empty (truncated to nothing) text", text: "" },
  { name: "binary garbage", text: "\u0000\u0000\uFFFD\u0001 not json" },
];

/**
 * Registers the tests that a store returns a corrupt current document as it is (the store does
 * not parse; the StateManager recovers) and that the backup survives it.
 *
 * @param context - the suite's options and the running test's store.
 */
export function registerCorruptionTests<Store extends StateStore>(
  context: SuiteContext<Store>,
): void {
  it.each(corruptTexts)("returns $name as is and keeps the backup", async ({ text }) => {
    const store = context.store();
    await store.set(terminal, key, '{"iteration": 1}');
    await store.set(terminal, key, '{"iteration": 2}');
    await context.options.corrupt(store, terminal, key, text);

    expect(await context.inspect(terminal, key, "current")).toBe(text);
    expect(await store.get(terminal, key)).toBe(text);
    expect(await store.get(terminal, key, "backup")).toBe('{"iteration": 1}');
    expect(await context.inspect(terminal, key, "backup")).toBe('{"iteration": 1}');
  });

  it("replaces a corrupt document, which becomes the backup like any replaced version", async () => {
    const store = context.store();
    await store.set(terminal, key, '{"iteration": 1}');
    await context.options.corrupt(store, terminal, key, "{broken");
    await store.set(terminal, key, '{"iteration": 1, "recovered": true}');
    expect(await store.get(terminal, key)).toBe('{"iteration": 1, "recovered": true}');
    expect(await store.get(terminal, key, "backup")).toBe("{broken");
  });
}

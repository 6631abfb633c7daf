import type { StateStore } from "@loop/core";
import { expect, it } from "vitest";
import type { SuiteContext } from "./suite-context.js";

/**
 * Registers the tests that documents of different terminals, and different keys, never
 * touch each other.
 *
 * @param context - the suite's options and the running test's store.
 */
export function registerIsolationTests<Store extends StateStore>(
  context: SuiteContext<Store>,
): void {
  it("keeps terminals apart: each has its own current version and backup", async () => {
    const store = context.store();
    await store.set("one", "loop_state", "one: first");
    await store.set("one", "loop_state", "one: second");
    await store.set("two", "loop_state", "two: first");
    expect(await store.get("one", "loop_state")).toBe("one: second");
    expect(await store.get("one", "loop_state", "backup")).toBe("one: first");
    expect(await store.get("two", "loop_state")).toBe("two: first");
    expect(await store.get("two", "loop_state", "backup")).toBeNull();

    await store.delete("one", "loop_state");
    expect(await store.get("two", "loop_state")).toBe("two: first");
    expect(await context.inspect("two", "loop_state", "current")).toBe("two: first");
  });

  it("keeps keys apart: each has its own current version and backup", async () => {
    const store = context.store();
    await store.set("one", "loop_state", "state: first");
    await store.set("one", "loop_state", "state: second");
    await store.set("one", "loop_metrics", "metrics: first");
    expect(await store.get("one", "loop_metrics")).toBe("metrics: first");
    expect(await store.get("one", "loop_metrics", "backup")).toBeNull();

    await store.delete("one", "loop_metrics");
    expect(await store.get("one", "loop_state")).toBe("state: second");
    expect(await store.get("one", "loop_state", "backup")).toBe("state: first");
    expect(await context.inspect("one", "loop_state", "backup")).toBe("state: first");
  });

  it("accepts any key made of a-z and _", async () => {
    const store = context.store();
    const keys = ["loop_state", "loop_metrics", "progress_notes", "x", "_"];
    for (const key of keys) await store.set("one", key, `text of ${key}`);
    for (const key of keys) {
      expect(await store.get("one", key)).toBe(`text of ${key}`);
      expect(await context.inspect("one", key, "current")).toBe(`text of ${key}`);
    }
  });
}

import type { StateStore } from "@loop/core";
import { expect, it } from "vitest";
import { expectSameText } from "./expect-same-text.js";
import { sampleTexts } from "./sample-texts.js";
import type { SuiteContext } from "./suite-context.js";

const terminal = "conformance";
const key = "loop_state";

/**
 * Registers the tests of one document's life: read, write, replace with backup, delete.
 *
 * @param context - the suite's options and the running test's store.
 */
export function registerDocumentTests<Store extends StateStore>(
  context: SuiteContext<Store>,
): void {
  it('declares specificationVersion "v1"', () => {
    expect(context.store().specificationVersion).toBe("v1");
  });

  it("returns null for a document that was never set, current and backup", async () => {
    const store = context.store();
    expect(await store.get(terminal, key)).toBeNull();
    expect(await store.get(terminal, key, "backup")).toBeNull();
    expect(await context.inspect(terminal, key, "current")).toBeNull();
    expect(await context.inspect(terminal, key, "backup")).toBeNull();
  });

  it.each(sampleTexts)("stores $name byte for byte", async ({ text }) => {
    const store = context.store();
    await store.set(terminal, key, text);
    expectSameText(await store.get(terminal, key), text, "get");
    expectSameText(await context.inspect(terminal, key, "current"), text, "inspect");
  });

  it("reads the current version when no version is given", async () => {
    const store = context.store();
    await store.set(terminal, key, "first");
    await store.set(terminal, key, "second");
    expect(await store.get(terminal, key)).toBe("second");
    expect(await store.get(terminal, key, "current")).toBe("second");
  });

  it("keeps no backup after the first set", async () => {
    const store = context.store();
    await store.set(terminal, key, "first");
    expect(await store.get(terminal, key, "backup")).toBeNull();
    expect(await context.inspect(terminal, key, "backup")).toBeNull();
  });

  it("replaces the document and keeps the replaced version as the backup", async () => {
    const store = context.store();
    await store.set(terminal, key, "first");
    await store.set(terminal, key, "second");
    expect(await store.get(terminal, key)).toBe("second");
    expect(await store.get(terminal, key, "backup")).toBe("first");
    expect(await context.inspect(terminal, key, "current")).toBe("second");
    expect(await context.inspect(terminal, key, "backup")).toBe("first");
  });

  it("writes a derived document (`durable: false`) as any other: replaced whole, backup kept", async () => {
    const store = context.store();
    await store.set(terminal, "loop_metrics", "first", { durable: false });
    await store.set(terminal, "loop_metrics", "second", { durable: false });
    await store.set(terminal, "loop_metrics", "third");
    expect(await store.get(terminal, "loop_metrics")).toBe("third");
    expect(await store.get(terminal, "loop_metrics", "backup")).toBe("second");
    expect(await context.inspect(terminal, "loop_metrics", "current")).toBe("third");
    expect(await context.inspect(terminal, "loop_metrics", "backup")).toBe("second");
  });

  it("keeps the immediately previous version as the backup after several sets", async () => {
    const store = context.store();
    for (const version of [1, 2, 3, 4, 5]) await store.set(terminal, key, `version ${version}`);
    expect(await store.get(terminal, key)).toBe("version 5");
    expect(await store.get(terminal, key, "backup")).toBe("version 4");
    expect(await context.inspect(terminal, key, "backup")).toBe("version 4");
  });

  it("deletes the current version and the backup", async () => {
    const store = context.store();
    await store.set(terminal, key, "first");
    await store.set(terminal, key, "second");
    await store.delete(terminal, key);
    expect(await store.get(terminal, key)).toBeNull();
    expect(await store.get(terminal, key, "backup")).toBeNull();
    expect(await context.inspect(terminal, key, "current")).toBeNull();
    expect(await context.inspect(terminal, key, "backup")).toBeNull();
  });

  it("deletes a document that does not exist without error", async () => {
    const store = context.store();
    await expect(store.delete(terminal, key)).resolves.toBeUndefined();
    await expect(store.delete("never-used", "loop_metrics")).resolves.toBeUndefined();
  });

  it("starts afresh after a delete: the next set has no backup", async () => {
    const store = context.store();
    await store.set(terminal, key, "before delete");
    await store.set(terminal, key, "deleted");
    await store.delete(terminal, key);
    await store.set(terminal, key, "after delete");
    expect(await store.get(terminal, key)).toBe("after delete");
    expect(await store.get(terminal, key, "backup")).toBeNull();
  });
}

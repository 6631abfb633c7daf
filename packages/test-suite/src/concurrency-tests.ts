import type { StateStore } from "@loop/core";
import { assert, expect, it } from "vitest";
import type { SuiteContext } from "./suite-context.js";

const key = "loop_state";

/**
 * Distinct texts, long enough that a torn or interleaved write could not pass for one of
 * them: writer `index`'s text is its own letter repeated, framed by its number.
 */
function writerTexts(count: number): string[] {
  return Array.from({ length: count }, (_, index) => {
    const letter = String.fromCharCode(65 + (index % 26));
    return `writer ${index} begins ${letter.repeat(20_000)} writer ${index} ends`;
  });
}

/** Fails unless `text` is exactly one of `texts`, without printing megabytes of them. */
function expectOneOf(text: string | null, texts: readonly string[], what: string): void {
  if (text !== null && texts.includes(text)) return;
  const shown = text === null ? "null" : `${JSON.stringify(text.slice(0, 40))}… (${text.length})`;
  assert.fail(`${what} is not one of the written texts in full: ${shown}`);
}

/**
 * Registers the tests of parallel writers and readers: every write is all or nothing, and
 * writers to different terminals do not lose each other's documents.
 *
 * @param context - the suite's options and the running test's store.
 */
export function registerConcurrencyTests<Store extends StateStore>(
  context: SuiteContext<Store>,
): void {
  it("50 parallel sets to one key leave one written text in full, backup included", async () => {
    const store = context.store();
    const texts = writerTexts(50);
    await Promise.all(texts.map((text) => store.set("shared", key, text)));

    expectOneOf(await store.get("shared", key), texts, "the current version");
    expectOneOf(await store.get("shared", key, "backup"), texts, "the backup");
    expectOneOf(await context.inspect("shared", key, "current"), texts, "the stored current");
    expectOneOf(await context.inspect("shared", key, "backup"), texts, "the stored backup");
  });

  it("readers during parallel sets see a whole version, never a mix", async () => {
    const store = context.store();
    const texts = writerTexts(20);
    const [initial = ""] = texts;
    await store.set("shared", key, initial);
    const writes = texts.slice(1).map((text) => store.set("shared", key, text));
    const reads = texts.map(() => store.get("shared", key));
    await Promise.all(writes);
    for (const read of await Promise.all(reads)) expectOneOf(read, texts, "a read");
  });

  it("parallel sets to 20 terminals and two keys all land", async () => {
    const store = context.store();
    const terminals = Array.from({ length: 20 }, (_, index) => `terminal-${index}`);
    const keys = ["loop_state", "loop_metrics"];
    const writes = terminals.flatMap((terminal) =>
      keys.map((name) => store.set(terminal, name, `${name} of ${terminal}`)),
    );
    await Promise.all(writes);
    for (const terminal of terminals) {
      for (const name of keys) {
        expect(await store.get(terminal, name)).toBe(`${name} of ${terminal}`);
        expect(await context.inspect(terminal, name, "current")).toBe(`${name} of ${terminal}`);
      }
    }
  });
}

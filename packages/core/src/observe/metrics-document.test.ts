import { describe, expect, it } from "vitest";
import { StateStoreError } from "../state/state-errors.js";
import type { StateDocumentKey, StateStore, StoredVersion } from "../state/state-store.js";
import { StateValidationError } from "../state/state-validation-error.js";
import type { LoopMetrics } from "./loop-metrics.js";
import { readMetrics, updateMetrics } from "./metrics-document.js";

/** A tiny, real StateStore over a Map: `set` keeps the replaced text as the backup. */
class MapStore implements StateStore {
  readonly specificationVersion = "v1" as const;
  readonly texts = new Map<string, { current: string; backup: string | null }>();

  async get(terminalId: string, key: StateDocumentKey, version: StoredVersion = "current") {
    const document = this.texts.get(`${terminalId}/${key}`);
    if (document === undefined) return null;
    return version === "current" ? document.current : document.backup;
  }

  async set(terminalId: string, key: StateDocumentKey, text: string) {
    const previous = this.texts.get(`${terminalId}/${key}`);
    this.texts.set(`${terminalId}/${key}`, { current: text, backup: previous?.current ?? null });
  }

  async delete(terminalId: string, key: StateDocumentKey) {
    this.texts.delete(`${terminalId}/${key}`);
  }
}

/** The seed's loop_metrics.json example. */
const seedMetrics: LoopMetrics = {
  iterations: 5,
  tasks_completed: 5,
  tasks_failed: 0,
  last_update: "2026-03-14T10:10:46",
};

function reports() {
  const errors: unknown[] = [];
  return { errors, onError: (error: unknown) => errors.push(error) };
}

describe("updateMetrics and readMetrics", () => {
  it("writes the seed's document and reads it back", async () => {
    const store = new MapStore();
    const { errors, onError } = reports();
    await updateMetrics(store, "term_001", seedMetrics, { onError });
    expect(errors).toEqual([]);
    expect(store.texts.get("term_001/loop_metrics")?.current).toBe(
      `${JSON.stringify(seedMetrics, null, 2)}\n`,
    );
    expect(await readMetrics(store, "term_001")).toEqual(seedMetrics);
  });

  it("reads nothing as null, without a report", async () => {
    const { errors, onError } = reports();
    expect(await readMetrics(new MapStore(), "t", { onError })).toBeNull();
    expect(errors).toEqual([]);
  });

  it("does not write invalid metrics, and reports the field", async () => {
    const store = new MapStore();
    const { errors, onError } = reports();
    await updateMetrics(store, "t", { ...seedMetrics, tasks_failed: -1 }, { onError });
    expect(store.texts.size).toBe(0);
    expect(errors).toHaveLength(1);
    const error = errors[0] as StateValidationError;
    expect(StateValidationError.isInstance(error)).toBe(true);
    expect(error.document).toBe("loop_metrics");
    expect(error.message).toBe(
      'Invalid loop_metrics of terminal "t" (1 problem):\n  loop_metrics.json tasks_failed: expected an integer ≥ 0, got -1',
    );
  });

  it("never rejects when the store fails, and reports a StateStoreError", async () => {
    const store = new MapStore();
    const failure = new Error("ENOSPC");
    store.set = () => Promise.reject(failure);
    store.get = () => Promise.reject(failure);
    const { errors, onError } = reports();
    await expect(updateMetrics(store, "t", seedMetrics, { onError })).resolves.toBeUndefined();
    await expect(readMetrics(store, "t", { onError })).resolves.toBeNull();
    expect(errors).toHaveLength(2);
    expect(errors.every((error) => StateStoreError.isInstance(error))).toBe(true);
    expect((errors[0] as Error).cause).toBe(failure);
  });

  it("never rejects when onError throws", async () => {
    const store = new MapStore();
    store.set = () => Promise.reject(new Error("ENOSPC"));
    const onError = () => {
      throw new Error("and the report failed");
    };
    await expect(updateMetrics(store, "t", seedMetrics, { onError })).resolves.toBeUndefined();
  });

  it("reads a corrupt document as null and reports where it is wrong", async () => {
    const store = new MapStore();
    await store.set("t", "loop_metrics", '{"iterations": 5,');
    const { errors, onError } = reports();
    expect(await readMetrics(store, "t", { onError })).toBeNull();
    expect((errors[0] as Error).message).toContain("loop_metrics.json:1:18 invalid JSON");
    await store.set("t", "loop_metrics", '{"iterations": "five"}');
    expect(await readMetrics(store, "t", { onError })).toBeNull();
    expect((errors[1] as StateValidationError).issues[0]?.path).toEqual(["iterations"]);
  });

  it("refuses unsafe terminal ids through onError", async () => {
    const store = new MapStore();
    const { errors, onError } = reports();
    await updateMetrics(store, "../x", seedMetrics, { onError });
    expect(store.texts.size).toBe(0);
    expect(StateStoreError.isInstance(errors[0])).toBe(true);
  });
});

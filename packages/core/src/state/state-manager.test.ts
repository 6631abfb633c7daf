import { describe, expect, it } from "vitest";
import { createInitialState } from "./initial-state.js";
import type { LoopState } from "./loop-state.js";
import { StateLockedError, StateStoreError } from "./state-errors.js";
import { createStateManager } from "./state-manager.js";
import type { StateDocumentKey, StateStore, StoredVersion } from "./state-store.js";
import { StateValidationError } from "./state-validation-error.js";
import { UnsupportedStoreError } from "./unsupported-store-error.js";

/** A tiny, real StateStore over a Map: `set` keeps the replaced text as the backup. */
class MapStore implements StateStore {
  readonly specificationVersion = "v1" as const;
  readonly documents = new Map<string, { current: string; backup: string | null }>();
  writes = 0;

  private static key(terminalId: string, key: StateDocumentKey): string {
    return `${terminalId}/${key}`;
  }

  async get(terminalId: string, key: StateDocumentKey, version: StoredVersion = "current") {
    const document = this.documents.get(MapStore.key(terminalId, key));
    if (document === undefined) return null;
    return version === "current" ? document.current : document.backup;
  }

  async set(terminalId: string, key: StateDocumentKey, text: string) {
    this.writes += 1;
    const previous = this.documents.get(MapStore.key(terminalId, key));
    this.documents.set(MapStore.key(terminalId, key), {
      current: text,
      backup: previous?.current ?? null,
    });
  }

  async delete(terminalId: string, key: StateDocumentKey) {
    this.documents.delete(MapStore.key(terminalId, key));
  }

  /** Puts raw texts in place, as a crash or a hand edit could leave them. */
  put(terminalId: string, current: string, backup: string | null) {
    this.documents.set(MapStore.key(terminalId, "loop_state"), { current, backup });
  }

  raw(terminalId: string) {
    return this.documents.get(MapStore.key(terminalId, "loop_state"));
  }
}

const now = "2026-03-14T10:00:00.000Z";
const initial = createInitialState({ planPath: "plan.md", now });
const later: LoopState = {
  ...initial,
  current_task_id: "TASK-002",
  completed_tasks: ["TASK-001"],
  completion_indicators: 1,
  loop_metadata: {
    ...initial.loop_metadata,
    iterations: 1,
    last_update: "2026-03-14T10:05:00.000Z",
  },
};
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

describe("createStateManager", () => {
  it("refuses a store of another specification version, or no store", () => {
    const v2 = { ...new MapStore(), specificationVersion: "v2" } as unknown as StateStore;
    expect(() => createStateManager(v2)).toThrow(UnsupportedStoreError);
    try {
      createStateManager(v2);
    } catch (error) {
      expect(UnsupportedStoreError.isInstance(error)).toBe(true);
      expect((error as UnsupportedStoreError).code).toBe("UNSUPPORTED_STORE");
      expect((error as Error).message).toContain('specification "v2"');
    }
    expect(() => createStateManager(null as unknown as StateStore)).toThrow(
      /has no specificationVersion/,
    );
  });
});

describe("StateManager", () => {
  it("round-trips a state, writing indented JSON with schema_version", async () => {
    const store = new MapStore();
    const manager = createStateManager(store);
    expect(await manager.readState("t1")).toEqual({ state: null, recovery: null });
    await manager.writeState("t1", later);
    expect(store.raw("t1")?.current).toBe(json(later));
    expect(await manager.readState("t1")).toEqual({ state: later, recovery: null });
  });

  it("fills schema_version in and keeps unknown fields when writing", async () => {
    const store = new MapStore();
    const manager = createStateManager(store);
    const { schema_version: _version, ...withoutVersion } = later;
    await manager.writeState("t1", { ...withoutVersion, extra: [1] } as unknown as LoopState);
    expect(JSON.parse(store.raw("t1")?.current ?? "")).toMatchObject({
      schema_version: 1,
      extra: [1],
    });
  });

  it("never writes an invalid state, and names the bad field", async () => {
    const store = new MapStore();
    const manager = createStateManager(store);
    await manager.writeState("t1", initial);
    const before = structuredClone(store.raw("t1"));
    const writes = store.writes;
    const bad = { ...later, completion_indicators: -1 } as LoopState;
    const error = await manager.writeState("t1", bad).catch((caught: unknown) => caught);
    expect(StateValidationError.isInstance(error)).toBe(true);
    const validation = error as StateValidationError;
    expect(validation.code).toBe("STATE_VALIDATION_ERROR");
    expect(validation.issues).toEqual([
      { path: ["completion_indicators"], message: "expected an integer ≥ 0, got -1" },
    ]);
    expect(validation.message).toBe(
      'Invalid loop_state of terminal "t1" (1 problem):\n  loop_state.json completion_indicators: expected an integer ≥ 0, got -1',
    );
    expect(store.writes).toBe(writes);
    expect(store.raw("t1")).toEqual(before);
  });

  it("writes unchecked with validateSchema: false", async () => {
    const store = new MapStore();
    const manager = createStateManager(store);
    const odd = { ...later, completion_indicators: -1 } as LoopState;
    await manager.writeState("t1", odd, { validateSchema: false });
    expect(JSON.parse(store.raw("t1")?.current ?? "").completion_indicators).toBe(-1);
  });

  it("refuses a value that cannot be JSON, even unchecked", async () => {
    const manager = createStateManager(new MapStore());
    const cyclic: Record<string, unknown> = { ...later };
    cyclic.self = cyclic;
    await expect(
      manager.writeState("t1", cyclic as LoopState, { validateSchema: false }),
    ).rejects.toThrow(StateValidationError);
  });

  it("recovers a corrupt current document from a valid backup and writes it back", async () => {
    const store = new MapStore();
    const manager = createStateManager(store);
    const backup = json(later);
    store.put("t1", '{"current_task_id": "TASK-003", "completed_tasks": [', backup);
    const result = await manager.readState("t1");
    expect(result.state).toEqual(later);
    expect(result.recovery).toEqual({
      from: "backup",
      problem: "loop_state.json:1:53 invalid JSON: expected `]` to close the array",
      backupProblem: null,
      rewritten: true,
    });
    expect(store.raw("t1")?.current).toBe(backup);
    expect(await manager.readState("t1")).toEqual({ state: later, recovery: null });
  });

  it("with repair: false, returns the backup's state and writes nothing (a reader's view)", async () => {
    const store = new MapStore();
    const manager = createStateManager(store);
    const corrupt = '{"current_task_id": "TASK-003", "completed_tasks": [';
    const backup = json(later);
    store.put("t1", corrupt, backup);
    const result = await manager.readState("t1", { repair: false });
    expect(result.state).toEqual(later);
    expect(result.recovery).toMatchObject({ from: "backup", rewritten: false });
    expect(store.raw("t1")).toEqual({ current: corrupt, backup });
  });

  it("recovers a document that is valid JSON but not a valid state, naming the field", async () => {
    const store = new MapStore();
    const manager = createStateManager(store);
    store.put("t1", json({ ...later, completion_indicators: "two" }), json(initial));
    const result = await manager.readState("t1");
    expect(result.state).toEqual(initial);
    expect(result.recovery?.from).toBe("backup");
    expect(result.recovery?.problem).toBe(
      'loop_state.json completion_indicators: expected an integer ≥ 0, got "two"',
    );
  });

  it("starts fresh when the backup is corrupt too, and says why", async () => {
    const store = new MapStore();
    const manager = createStateManager(store);
    store.put("t1", "not json", json({ ...later, loop_metadata: undefined }));
    const result = await manager.readState("t1");
    expect(result).toEqual({
      state: null,
      recovery: {
        from: "fresh",
        problem: 'loop_state.json:1:1 invalid JSON: unexpected "not"; expected a JSON value',
        backupProblem: "backup loop_metadata: missing: expected a mapping (an object)",
        rewritten: false,
      },
    });
    expect(store.raw("t1")?.current).toBe("not json");
  });

  it("starts fresh when a corrupt document has no backup", async () => {
    const store = new MapStore();
    store.put("t1", "", null);
    const result = await createStateManager(store).readState("t1");
    expect(result.state).toBeNull();
    expect(result.recovery).toMatchObject({ from: "fresh", backupProblem: "no backup" });
  });

  it("refuses to recover over a document from a newer schema version", async () => {
    const store = new MapStore();
    store.put("t1", json({ ...later, schema_version: 2, new_required: 1 }), json(initial));
    const error = await createStateManager(store)
      .readState("t1")
      .catch((caught: unknown) => caught);
    expect(StateValidationError.isInstance(error)).toBe(true);
    expect((error as StateValidationError).issues[0]?.path).toEqual(["schema_version"]);
    expect(store.writes).toBe(0);
  });

  it("wraps store failures in a StateStoreError, keeping the cause", async () => {
    const failure = new Error("EACCES: permission denied");
    const store = new MapStore();
    store.get = async () => {
      throw failure;
    };
    store.set = async () => {
      throw failure;
    };
    const manager = createStateManager(store);
    const readError = await manager.readState("t1").catch((caught: unknown) => caught);
    expect(StateStoreError.isInstance(readError)).toBe(true);
    expect((readError as Error).cause).toBe(failure);
    expect((readError as Error).message).toBe(
      'Could not read the current loop_state of terminal "t1": EACCES: permission denied',
    );
    const writeError = await manager.writeState("t1", later).catch((caught: unknown) => caught);
    expect(StateStoreError.isInstance(writeError)).toBe(true);
  });

  it("passes a store's own StateStoreError and StateLockedError through", async () => {
    const own = new StateStoreError({ message: "disk full" });
    const locked = new StateLockedError({
      terminalId: "t1",
      holder: { pid: 1, host: "h", startedAt: now },
    });
    const store = new MapStore();
    store.set = async () => {
      throw own;
    };
    store.get = async () => {
      throw locked;
    };
    const manager = createStateManager(store);
    await expect(manager.writeState("t1", later)).rejects.toBe(own);
    await expect(manager.readState("t1")).rejects.toBe(locked);
  });

  it("fails with a StateStoreError when restoring the backup fails", async () => {
    const store = new MapStore();
    store.put("t1", "{", json(later));
    store.set = async () => {
      throw new Error("read-only file system");
    };
    await expect(createStateManager(store).readState("t1")).rejects.toThrow(
      /Could not restore the backup of loop_state of terminal "t1": read-only file system/,
    );
  });

  it("treats a store that returns something other than text as broken", async () => {
    const store = new MapStore();
    store.get = async () => 42 as unknown as string;
    await expect(createStateManager(store).readState("t1")).rejects.toThrow(StateStoreError);
  });

  it("refuses unsafe terminal ids before the store sees them", async () => {
    const store = new MapStore();
    const manager = createStateManager(store);
    for (const id of ["../x", "a/b", "", ".", "x".repeat(65)]) {
      await expect(manager.readState(id)).rejects.toThrow(StateStoreError);
      await expect(manager.writeState(id, later)).rejects.toThrow(StateStoreError);
    }
    expect(store.writes).toBe(0);
  });

  it("keeps terminals apart", async () => {
    const store = new MapStore();
    const manager = createStateManager(store);
    await manager.writeState("a", initial);
    await manager.writeState("b", later);
    expect((await manager.readState("a")).state).toEqual(initial);
    expect((await manager.readState("b")).state).toEqual(later);
  });
});

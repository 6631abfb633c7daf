import type { LoopState } from "./loop-state.js";
import {
  checkState,
  describeProblems,
  LOOP_STATE_KEY,
  readStateText,
  serializeDocument,
} from "./state-document.js";
import type { StateStore } from "./state-store.js";
import { StateValidationError } from "./state-validation-error.js";
import { requireSafeTerminalId, storeCall, storedText } from "./store-call.js";
import { UnsupportedStoreError } from "./unsupported-store-error.js";

/** How {@link StateManager.readState} recovered from a corrupt current `loop_state`. */
export interface StateRecovery {
  /**
   * `backup`: the backup was valid and is returned (and written back as the current document,
   * see {@link StateRecovery.rewritten}).
   * `fresh`: the backup was missing or unusable too; the caller starts from a new state.
   */
  readonly from: "backup" | "fresh";
  /**
   * What was wrong with the current document, with its location: a JSON syntax error at
   * `loop_state.json:3:7`, or every schema problem with its key path
   * (`loop_state.json completion_indicators: expected an integer ≥ 0, got -1`), `; `-separated.
   */
  readonly problem: string;
  /** With `fresh`: why the backup could not be used (`no backup`, or its problems); else `null`. */
  readonly backupProblem: string | null;
  /**
   * Whether the backup was written back as the current document: so with `backup`, unless the
   * read was `repair: false`.
   */
  readonly rewritten: boolean;
}

/** The answer of {@link StateManager.readState}. */
export interface ReadStateResult {
  /** The state; `null` when there is none yet, or when both versions were unusable. */
  readonly state: LoopState | null;
  /** `null` when the current document was read as it is (or did not exist). */
  readonly recovery: StateRecovery | null;
}

/** Options of {@link StateManager.readState}. */
export interface ReadStateOptions {
  /**
   * Write a valid backup back as the current document when the current one is corrupt
   * (default `true`: what the loop does, once, when it starts). With `false` the store is
   * only read — the backup's state is returned with `recovery.rewritten: false` — for tools
   * that look at a loop without changing its files (`loop status`, `loop monitor`, displays
   * that read while the loop runs).
   */
  readonly repair?: boolean | undefined;
}

/** Options of {@link StateManager.writeState}. */
export interface WriteStateOptions {
  /**
   * Check the state against `LoopStateSchema` before writing (default `true`, as the seed's
   * `write_state(…, validate_schema=True)`). An invalid state is never written. With `false`
   * the value is written as it is, unchecked.
   */
  readonly validateSchema?: boolean | undefined;
  /**
   * Whether this version must survive a power loss once the write resolves (default `true`):
   * passed on to the store as `StateSetOptions.durable`. `false` for a version whose news is
   * worth nothing after a power loss — the loop's record that the agent's process has started
   * (a power loss ends the process too) — so the version before it is enough.
   */
  readonly durable?: boolean | undefined;
}

/**
 * Reads and writes `loop_state` through a {@link StateStore}: validates every write, recovers a
 * corrupt document from the store's backup.
 */
export interface StateManager {
  /** The store the manager reads and writes. */
  readonly store: StateStore;
  /**
   * Reads a terminal's state.
   *
   * - No document: `{ state: null, recovery: null }` (a first run). The backup is not consulted.
   * - A valid document: it, with `recovery: null`.
   * - A corrupt one (invalid JSON, or not matching the schema): the backup is read; a valid
   *   backup is returned and written back as the current document
   *   (`recovery.from: "backup"`) — unless `repair: false`, which writes nothing; otherwise
   *   `{ state: null, recovery: { from: "fresh", … } }` and the caller starts fresh. The caller
   *   logs the recovery (`state_recovered`).
   *
   * @param terminalId - a safe terminal id (`getTerminalId`).
   * @param options - `repair` (default `true`): whether a recovery may write.
   * @throws {StateStoreError} when the store fails, or the terminal id is unsafe.
   * @throws {StateValidationError} when a document was written by a newer schema version: it is
   * left untouched rather than recovered over.
   */
  readState(terminalId: string, options?: ReadStateOptions | null): Promise<ReadStateResult>;
  /**
   * Writes a terminal's state atomically; the store keeps the replaced version as the backup.
   * The state is validated first (unless `validateSchema: false`) and written with its
   * defaults filled in (`schema_version`); unknown fields are kept. The manager does not
   * touch `loop_metadata.last_update`: the caller sets it from its clock.
   *
   * @param terminalId - a safe terminal id.
   * @param state - the whole document.
   * @param options - `validateSchema` (default `true`).
   * @throws {StateValidationError} naming every invalid field; nothing is written.
   * @throws {StateStoreError} when the store fails, or the terminal id is unsafe.
   */
  writeState(
    terminalId: string,
    state: LoopState,
    options?: WriteStateOptions | null,
  ): Promise<void>;
}

/** Reads one stored version of `loop_state`. */
async function getText(
  store: StateStore,
  terminalId: string,
  version: "current" | "backup",
): Promise<string | null> {
  const action = `read the ${version} loop_state of terminal "${terminalId}"`;
  const text = await storeCall(action, () => store.get(terminalId, LOOP_STATE_KEY, version));
  return storedText(text, action);
}

async function readState(
  store: StateStore,
  terminalId: string,
  options: ReadStateOptions | null | undefined,
): Promise<ReadStateResult> {
  requireSafeTerminalId(terminalId);
  const current = await getText(store, terminalId, "current");
  if (current === null) return { state: null, recovery: null };
  const currentCheck = readStateText(current, terminalId);
  if (currentCheck.ok) return { state: currentCheck.state, recovery: null };
  const problem = describeProblems(currentCheck.issues);

  const backup = await getText(store, terminalId, "backup");
  if (backup === null) {
    return {
      state: null,
      recovery: { from: "fresh", problem, backupProblem: "no backup", rewritten: false },
    };
  }
  const backupCheck = readStateText(backup, terminalId);
  if (!backupCheck.ok) {
    const backupProblem = describeProblems(backupCheck.issues, "backup");
    return { state: null, recovery: { from: "fresh", problem, backupProblem, rewritten: false } };
  }
  const repair = options?.repair !== false;
  if (repair) {
    await storeCall(`restore the backup of loop_state of terminal "${terminalId}"`, () =>
      store.set(terminalId, LOOP_STATE_KEY, backup),
    );
  }
  return {
    state: backupCheck.state,
    recovery: { from: "backup", problem, backupProblem: null, rewritten: repair },
  };
}

async function writeState(
  store: StateStore,
  terminalId: string,
  state: LoopState,
  options: WriteStateOptions | null | undefined,
): Promise<void> {
  requireSafeTerminalId(terminalId);
  let document: unknown = state;
  if (options?.validateSchema ?? true) {
    const check = checkState(state, terminalId);
    if (!check.ok) throw new StateValidationError({ issues: check.issues, terminalId });
    document = check.state;
  }
  const text = serializeDocument(document, LOOP_STATE_KEY, terminalId);
  await storeCall(`write loop_state of terminal "${terminalId}"`, () =>
    options?.durable === false
      ? store.set(terminalId, LOOP_STATE_KEY, text, { durable: false })
      : store.set(terminalId, LOOP_STATE_KEY, text),
  );
}

/**
 * Creates the {@link StateManager} over a store, after checking that the store implements the
 * `v1` `StateStore` interface.
 *
 * @param store - any `StateStore` (`MemoryStateStore`, `createFileStateStore`, your own).
 * @returns the manager.
 * @throws {UnsupportedStoreError} when `store` is not a store, or its `specificationVersion` is
 * not `"v1"`.
 * @example
 * ```ts
 * const manager = createStateManager(store);
 * const { state, recovery } = await manager.readState(terminalId);
 * if (recovery !== null) logger.log(createDecisionEvent(terminalId, "state_recovered",
 *   { from: recovery.from, problem: recovery.problem }, now));
 * await manager.writeState(terminalId, state ?? createInitialState({ planPath, now }));
 * ```
 */
export function createStateManager(store: StateStore): StateManager {
  const specificationVersion: unknown =
    typeof store === "object" && store !== null ? store.specificationVersion : undefined;
  if (specificationVersion !== "v1") throw new UnsupportedStoreError({ specificationVersion });
  return {
    store,
    readState: (terminalId, options) => readState(store, terminalId, options),
    writeState: (terminalId, state, options) => writeState(store, terminalId, state, options),
  };
}

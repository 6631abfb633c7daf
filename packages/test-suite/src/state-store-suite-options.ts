import type { LockHolder, StateStore } from "@loop/core";

/**
 * How {@link testStateStore} creates, inspects and cleans up the store under test. The
 * `inspect`, `corrupt` and `plant…` hooks reach the raw backend (the Map, the files, the
 * database rows), bypassing the store, so the suite can prove what was really stored.
 *
 * @typeParam Store - the store class or interface under test.
 */
export interface StateStoreSuiteOptions<Store extends StateStore> {
  /** Shown in test names. */
  readonly name: string;
  /** A fresh, empty store for one test. */
  create(): Store | Promise<Store>;
  /** Reads the raw backend, bypassing the store: what is really stored (current or backup), or null. */
  inspect(
    store: Store,
    terminalId: string,
    key: string,
    version: "current" | "backup",
  ): Promise<string | null>;
  /** Writes raw bytes into the backend, bypassing the store (to corrupt a document). */
  corrupt(store: Store, terminalId: string, key: string, text: string): Promise<void>;
  /** Plants a lock held by `holder` whose process is gone (stores with `lock` only). */
  plantStaleLock?(store: Store, terminalId: string, holder: LockHolder): Promise<void>;
  /** Plants a lock held by a live process other than this one (stores with `lock` only). */
  plantLiveLock?(store: Store, terminalId: string): Promise<LockHolder>;
  /** Cleans up after one test. */
  destroy?(store: Store): Promise<void>;
}

import type { StateStore } from "@loop/core";
import { afterEach, beforeEach, describe } from "vitest";
import { checkSuiteOptions } from "./check-suite-options.js";
import { registerConcurrencyTests } from "./concurrency-tests.js";
import { registerCorruptionTests } from "./corruption-tests.js";
import { registerDocumentTests } from "./document-tests.js";
import { registerIsolationTests } from "./isolation-tests.js";
import { registerLockTests } from "./lock-tests.js";
import type { StateStoreSuiteOptions } from "./state-store-suite-options.js";
import type { SuiteContext } from "./suite-context.js";
import { registerTerminalIdTests } from "./terminal-id-tests.js";

/** One group of conformance tests: a `describe` title and the function that registers its tests. */
interface TestGroup {
  /** The `describe` title. */
  readonly title: string;
  /** Registers the group's tests. */
  register<Store extends StateStore>(context: SuiteContext<Store>): void;
}

/** The groups every store runs; `lock` is registered apart, as it depends on the store. */
const testGroups: readonly TestGroup[] = [
  { title: "documents", register: registerDocumentTests },
  { title: "isolation", register: registerIsolationTests },
  { title: "terminal ids", register: registerTerminalIdTests },
  { title: "concurrency", register: registerConcurrencyTests },
  { title: "corruption", register: registerCorruptionTests },
];

/**
 * Registers the conformance suite of the `StateStore` v1 contract for one implementation, as a
 * vitest `describe` block: documents and backups, isolation, unsafe terminal ids, parallel
 * writers, corrupt documents and, when the store has `lock`, locking. Every store of the SDK
 * runs it; its hooks (`inspect`, `corrupt`, `plant…`) read and write the raw backend so the
 * suite checks what is really stored, not only what the store says.
 *
 * Every test gets a fresh store from `create()` and hands it to `destroy()` afterwards.
 * `create()` is also called once while the tests are collected, to see whether the store
 * has `lock`; a store without it gets the lock tests registered as skipped.
 *
 * @example
 * ```ts
 * testStateStore({
 *   name: "MemoryStateStore",
 *   create: () => new MemoryStateStore(),
 *   inspect: async (store, terminalId, key, version) =>
 *     store.documents.get(terminalId)?.get(key)?.[version] ?? null,
 *   corrupt: async (store, terminalId, key, text) => { … },
 * });
 * ```
 *
 * @param options - how to create, inspect and clean up the store under test.
 * @throws {TypeError} when a required option is missing or mistyped, before registering anything.
 */
export function testStateStore<Store extends StateStore>(
  options: StateStoreSuiteOptions<Store>,
): void {
  checkSuiteOptions(options);
  describe(`${options.name} (StateStore v1 conformance)`, async () => {
    const canLock = await probeLock(options);
    let current: Store | undefined;
    beforeEach(async () => {
      current = await options.create();
    });
    afterEach(async () => {
      const store = current;
      current = undefined;
      if (store !== undefined) await options.destroy?.(store);
    });

    const store = (): Store => {
      if (current === undefined) throw new Error("The store is only available inside a test");
      return current;
    };
    const context: SuiteContext<Store> = {
      options,
      store,
      inspect: (terminalId, key, version) => options.inspect(store(), terminalId, key, version),
    };
    for (const group of testGroups) describe(group.title, () => group.register(context));
    const lockTitle = canLock ? "lock" : "lock (skipped: the store has no lock method)";
    (canLock ? describe : describe.skip)(lockTitle, () => registerLockTests(context));
  });
}

/**
 * Creates one store to see whether it has `lock`, and checks that a store with `lock` came
 * with the hooks the lock tests need.
 */
async function probeLock<Store extends StateStore>(
  options: StateStoreSuiteOptions<Store>,
): Promise<boolean> {
  const probe = await options.create();
  const canLock = typeof probe.lock === "function";
  await options.destroy?.(probe);
  if (canLock) {
    for (const hook of ["plantStaleLock", "plantLiveLock"] as const) {
      if (options[hook] === undefined) {
        throw new TypeError(`Missing required option \`${hook}\` (the store has a lock method)`);
      }
    }
  }
  return canLock;
}

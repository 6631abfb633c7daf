import type { StateStore } from "@loop/core";
import type { StateStoreSuiteOptions } from "./state-store-suite-options.js";

/** What every group of conformance tests gets: the suite's options and the running test's store. */
export interface SuiteContext<Store extends StateStore> {
  /** The options `testStateStore` was called with. */
  readonly options: StateStoreSuiteOptions<Store>;
  /** The fresh store `create()` made for the test that is running. */
  store(): Store;
  /** Reads the raw backend of the running test's store (`options.inspect`). */
  inspect(terminalId: string, key: string, version: "current" | "backup"): Promise<string | null>;
}

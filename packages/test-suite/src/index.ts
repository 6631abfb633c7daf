/**
 * The private conformance suite of the loop SDK: `testStateStore` registers the tests of the
 * `StateStore` v1 contract for one implementation. Every store (`@loop/memory`, `@loop/fs`, and
 * any future one) runs it from its own test file, with hooks that read the raw backend.
 *
 * @packageDocumentation
 */

export type { StateStoreSuiteOptions } from "./state-store-suite-options.js";
export { testStateStore } from "./test-state-store.js";

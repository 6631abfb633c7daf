/**
 * In-memory adapters of the loop SDK, for tests and for embedding: `MemoryStateStore` (a
 * `StateStore` in a Map, with backups and locks), `MemoryLogger` (decision events in an array)
 * and `memoryPlan` (a `PlanSource` in a string).
 *
 * @packageDocumentation
 */

export { MemoryLogger, type MemoryLoggerOptions } from "./memory-logger.js";
export { type MemoryPlan, type MemoryPlanOptions, memoryPlan } from "./memory-plan.js";
export {
  type MemoryDocument,
  type MemoryStateSnapshot,
  MemoryStateStore,
  type MemoryStateStoreOptions,
} from "./memory-state-store.js";

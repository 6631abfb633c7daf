/**
 * In-memory adapters of the loop SDK, for tests and for embedding: `MemoryStateStore` (a
 * `StateStore` in a Map, with backups and locks), `MemoryLogger` (decision events in an array),
 * `memoryPlan` (a `PlanSource` in a string) and `createMemorySharedLimits` (an hourly call limit
 * and a cost budget that the loops of one process hold together). And test doubles: `createScriptedExecutor`
 * (an `Executor` that answers from a script and records its calls, with the answers
 * `completesTask`, `makesNoProgress`, `fails`, `hitsUsageLimit` and `hangs`) and
 * `createTestClock` (a `Clock` on virtual time).
 *
 * @packageDocumentation
 */

export { MemoryLogger, type MemoryLoggerOptions } from "./memory-logger.js";
export { type MemoryPlan, type MemoryPlanOptions, memoryPlan } from "./memory-plan.js";
export {
  createMemorySharedLimits,
  type MemorySharedLimits,
  type MemorySharedLimitsCall,
  type MemorySharedLimitsOptions,
} from "./memory-shared-limits.js";
export {
  type MemoryDocument,
  type MemoryStateSnapshot,
  MemoryStateStore,
  type MemoryStateStoreOptions,
} from "./memory-state-store.js";
export {
  createScriptedExecutor,
  type ExecutionScript,
  type ScriptContext,
  type ScriptEntry,
  type ScriptedCall,
  type ScriptedExecutor,
  type ScriptedExecutorOptions,
  type ScriptStep,
} from "./scripted-executor.js";
export {
  type CompletesTaskOptions,
  completesTask,
  fails,
  type HitsUsageLimitOptions,
  hangs,
  hitsUsageLimit,
  makesNoProgress,
  type ScriptedAnswerOptions,
} from "./scripted-executor-answers.js";
export { createTestClock, type TestClock, type TestClockOptions } from "./test-clock.js";

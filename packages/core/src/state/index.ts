export { type AgentProcessRecord, AgentProcessRecordSchema } from "./agent-process-record.js";
export { type AgentReport, AgentReportSchema, agentReportOf } from "./agent-report.js";
export { createInitialState, type InitialStateOptions } from "./initial-state.js";
export {
  formatTimestamp,
  isIsoTimestamp,
  parseTimestamp,
} from "./iso-timestamp.js";
export { LOOP_STATE_SCHEMA_VERSION, type LoopState, LoopStateSchema } from "./loop-state.js";
export {
  fromCircuitBreakerState,
  type PersistedCircuitBreaker,
  PersistedCircuitBreakerSchema,
  toCircuitBreakerState,
} from "./persisted-circuit-breaker.js";
export {
  fromRateWindow,
  type PersistedRateWindow,
  PersistedRateWindowSchema,
  toRateWindow,
} from "./persisted-rate-window.js";
export {
  fromStopCounters,
  type PersistedStopCounters,
  PersistedStopCountersSchema,
  toStopCounters,
} from "./persisted-stop-counters.js";
export { PlanInUseError, type PlanInUseErrorOptions } from "./plan-in-use-error.js";
export { planLockId, projectLockId } from "./plan-lock-id.js";
export {
  DEFAULT_RESET_PARTS,
  RESET_PARTS,
  type ResetPart,
  type ResetSnapshot,
  type ResetStateOptions,
  resetState,
  type StateReset,
} from "./reset-state.js";
export { type RunRecord, RunRecordSchema } from "./run-record.js";
export { assertSafeTerminalId, isSafeTerminalId, sanitizeTerminalId } from "./safe-terminal-id.js";
export { type StartRunOptions, startRun } from "./start-run.js";
export { StateLockedError, StateStoreError } from "./state-errors.js";
export {
  createStateManager,
  type ReadStateOptions,
  type ReadStateResult,
  type StateManager,
  type StateRecovery,
  type WriteStateOptions,
} from "./state-manager.js";
export type {
  LockHolder,
  LockOptions,
  StateDocumentKey,
  StateLock,
  StateSetOptions,
  StateStore,
  StoredVersion,
} from "./state-store.js";
export {
  StateValidationError,
  type StateValidationErrorOptions,
} from "./state-validation-error.js";
export {
  getTerminalId,
  type TerminalEnvironment,
  type TerminalIdOptions,
} from "./terminal-id.js";
export { UnsupportedStoreError } from "./unsupported-store-error.js";
export {
  toUsageLimitRecord,
  type UsageLimitRecord,
  UsageLimitRecordSchema,
} from "./usage-limit-record.js";
export { type WorkerRecord, WorkerRecordSchema } from "./worker-record.js";

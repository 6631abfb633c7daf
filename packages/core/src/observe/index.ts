export {
  type BestEffortFlushOptions,
  type BestEffortLogger,
  type BestEffortOptions,
  bestEffort,
} from "./best-effort-logger.js";
export { createDecisionEvent } from "./create-decision-event.js";
export {
  DECISION_EVENT_NAMES,
  type DecisionEvent,
  type DecisionEventOf,
  DecisionEventSchema,
} from "./decision-event.js";
export { DecisionEventError } from "./decision-event-error.js";
export type {
  ConcernRecord,
  ConfigWarningPayload,
  DecisionEventName,
  DecisionEventPayloads,
  ErrorPayload,
  ExitCheckRecord,
  IterationEndPayload,
  IterationStartPayload,
  KeptWorkRecord,
  LockHolderRecord,
  LockTakeoverPayload,
  LoopExitPayload,
  MergeConflictPayload,
  PreviousAgentStoppedPayload,
  RateLimitWaitPayload,
  RecoveredIntegrationRecord,
  SharedUsageRecord,
  StateRecoveredPayload,
  StateResetPayload,
  TaskFailedPayload,
  TaskIntegratedPayload,
  TaskRetriedPayload,
  UsageLimitWaitPayload,
  VerificationPayload,
  WorkspacesRecoveredPayload,
} from "./decision-event-payloads.js";
export type { Logger } from "./logger.js";
export { type LoopMetrics, LoopMetricsSchema } from "./loop-metrics.js";
export {
  type ReadMetricsOptions,
  readMetrics,
  type UpdateMetricsOptions,
  updateMetrics,
} from "./metrics-document.js";
export {
  type ParseDecisionEventOptions,
  type ParsedDecisionEvent,
  parseDecisionEvent,
} from "./parse-decision-event.js";
export { REDACTED, redactSecrets } from "./redact-secrets.js";

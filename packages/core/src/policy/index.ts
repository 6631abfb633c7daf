export {
  type CircuitBreakerState,
  type CircuitBreakerThresholds,
  type CircuitCheck,
  type CircuitObservation,
  type CircuitState,
  type CircuitTrip,
  checkCircuit,
  initialCircuitBreakerState,
  observeIteration,
} from "./circuit-breaker.js";
export {
  type CompletionIndicatorInput,
  countsAsCompletionIndicator,
} from "./completion-indicator.js";
export type {
  ExitCheck,
  ExitCheckName,
  GateCheckName,
  SafetyCheckName,
} from "./exit-check.js";
export type { ExitPolicyConfig, ExitPolicyInput, WrapUpObservation } from "./exit-policy-input.js";
export {
  EXIT_REASONS,
  type ExitReason,
  isCompletionReason,
  isErrorReason,
  isExitReason,
} from "./exit-reasons.js";
export {
  type ExitSignalOrigin,
  type ResolvedExitSignal,
  resolveExitSignal,
} from "./exit-signal.js";
export {
  checkRateLimit,
  type RateLimitDecision,
  type RateWindow,
  rateWindowStart,
  recordCall,
} from "./rate-limiter.js";
export {
  type SchedulableTask,
  type Schedule,
  type ScheduledTask,
  type ScheduleInput,
  scheduleTasks,
} from "./schedule-tasks.js";
export {
  checkSharedLimitValues,
  claimSharedCall,
  recordSharedCost,
  releaseSharedCall,
  type SharedCounters,
  type SharedLimitValues,
  sharedCountersOf,
  sharedUsage,
} from "./shared-window.js";
export { type ExitDecision, shouldExit } from "./should-exit.js";
export {
  initialStopCounters,
  isQuestionOnly,
  type StopCounters,
  type StopObservation,
  updateStopCounters,
} from "./stop-counters.js";
export {
  type SelectableTask,
  type SkippedTask,
  type SkipReason,
  selectNextTask,
  type TaskSelection,
  type TaskSelectionInput,
} from "./task-selection.js";

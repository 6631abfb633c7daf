export type { Clock } from "./clock.js";
export type {
  ExecuteOptions,
  ExecutionRequest,
  ExecutionResult,
  Executor,
  UsageLimit,
} from "./executor.js";

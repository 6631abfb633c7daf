/**
 * File-system adapters of the loop SDK: a durable `StateStore` with backup and lock, the
 * JSON-lines decision and verifier logs, the per-iteration logs of the agent's raw output,
 * `status.json` for monitors, a plan on disk, the YAML config loader, and shared limits in a
 * file for the loops of one machine (`createFileSharedLimits`).
 *
 * @packageDocumentation
 */
export { type AtomicWriteOptions, atomicWriteFile } from "./atomic-write.js";
export { ConfigNotFoundError, type ConfigNotFoundErrorOptions } from "./config-not-found-error.js";
export { filePlan } from "./file-plan.js";
export { createFileSharedLimits, type FileSharedLimitsOptions } from "./file-shared-limits.js";
export {
  createFileStateStore,
  type FileStateStore,
  type FileStateStoreOptions,
  type LockHolderReport,
} from "./file-state-store.js";
export {
  createIterationLog,
  DEFAULT_ITERATION_LOG_KEEP,
  type IterationLog,
  type IterationLogOptions,
} from "./iteration-log.js";
export type { IterationLogEntry } from "./iteration-log-entry.js";
export {
  type IterationLogFile,
  type ListIterationLogsOptions,
  listIterationLogs,
  listIterationLogTerminals,
} from "./iteration-log-files.js";
export {
  createJsonlLogger,
  type JsonlLogger,
  type JsonlLoggerOptions,
} from "./jsonl-logger.js";
export { type LoadConfigFileOptions, loadConfigFile } from "./load-config-file.js";
export {
  DEFAULT_LOG_KEEP,
  DEFAULT_LOG_MAX_BYTES,
  type LogRotationOptions,
} from "./log-rotation.js";
export { LogWriteError, type LogWriteErrorOptions } from "./log-write-error.js";
export { PlanNotFoundError, type PlanNotFoundErrorOptions } from "./plan-not-found-error.js";
export { isProcessAlive } from "./process-alive.js";
export { createStatusFile, type StatusFile, type StatusFileOptions } from "./status-file.js";
export { StatusFileError } from "./status-file-error.js";
export { type Status, StatusWriteSchema } from "./status-file-schema.js";
export { findInvalidUtf8, type InvalidUtf8Position } from "./utf8-position.js";
export {
  createVerifierLog,
  type VerifierLog,
  type VerifierLogOptions,
} from "./verifier-log.js";
export type {
  VerifierConcernRecord,
  VerifierLogEntry,
  VerifierMatchRecord,
  VerifierRecord,
} from "./verifier-log-record.js";

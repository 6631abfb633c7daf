export type { Diagnostic } from "./errors/diagnostic.js";
export { formatDiagnostic, formatKeyPath } from "./errors/diagnostic.js";
export type { DiagnosticsErrorOptions } from "./errors/diagnostics-error.js";
export { DiagnosticsError } from "./errors/diagnostics-error.js";
export type { LoopErrorOptions } from "./errors/loop-error.js";
export { LoopError } from "./errors/loop-error.js";
export * from "./config/index.js";
export * from "./plan/prd/index.js";
export * from "./verify/index.js";

/**
 * The pure logic of the loop SDK: plan parsing and byte-preserving edits, prd.json stories,
 * config, agent-output analysis, the exit policy and verification. No I/O.
 *
 * @packageDocumentation
 */

export * from "./config/index.js";
export type { Diagnostic } from "./errors/diagnostic.js";
export { formatDiagnostic, formatKeyPath } from "./errors/diagnostic.js";
export type { DiagnosticsErrorOptions } from "./errors/diagnostics-error.js";
export { DiagnosticsError } from "./errors/diagnostics-error.js";
export type { LoopErrorOptions } from "./errors/loop-error.js";
export { LoopError } from "./errors/loop-error.js";
export {
  type PlugPointNames,
  UnsupportedSpecificationError,
} from "./errors/unsupported-specification-error.js";
export * from "./loop/index.js";
export * from "./observe/index.js";
export * from "./plan/index.js";
export * from "./plan/prd/index.js";
export * from "./policy/index.js";
export * from "./state/index.js";
export * from "./status/index.js";
export * from "./verify/index.js";

export { analyzeResponse } from "./analyze-response.js";
export { parseStatusBlock } from "./parse-status-block.js";
export type { PermissionDenial } from "./permission-denials.js";
export type {
  AnalyzeResponseOptions,
  ExitSignal,
  ExitSignalSource,
  ResponseSignals,
} from "./response-signals.js";
export {
  STATUS_BLOCK_END,
  STATUS_BLOCK_FIELDS,
  STATUS_BLOCK_START,
  STATUS_VALUES,
  type StatusBlock,
  type StatusBlockField,
  type StatusValue,
  TESTS_STATUS_VALUES,
  type TestsStatus,
  WORK_TYPES,
  type WorkType,
} from "./status-block.js";

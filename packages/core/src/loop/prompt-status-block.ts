import {
  STATUS_BLOCK_END,
  STATUS_BLOCK_START,
  STATUS_VALUES,
  TESTS_STATUS_VALUES,
  WORK_TYPES,
} from "../status/status-block.js";

/**
 * The `---RALPH_STATUS---` block the agent is told to end its answer with, as the
 * ralph_loop.sh prompt template writes it: each field with its allowed values. The value of
 * the `{{status_block}}` placeholder. Echoed back as is, it parses as a block whose fields are
 * all malformed, so it signals nothing.
 */
export const STATUS_BLOCK_TEMPLATE = [
  STATUS_BLOCK_START,
  `STATUS: ${STATUS_VALUES.join(" | ")}`,
  "TASKS_COMPLETED_THIS_LOOP: <number>",
  "FILES_MODIFIED: <number>",
  `TESTS_STATUS: ${TESTS_STATUS_VALUES.join(" | ")}`,
  `WORK_TYPE: ${WORK_TYPES.join(" | ")}`,
  "EXIT_SIGNAL: false | true",
  "RECOMMENDATION: <one line summary of what to do next>",
  STATUS_BLOCK_END,
].join("\n");

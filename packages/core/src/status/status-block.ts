import type { Diagnostic } from "../errors/diagnostic.js";

/** The line that opens a status block, as the ralph_loop.sh prompt template writes it. */
export const STATUS_BLOCK_START = "---RALPH_STATUS---";

/** The line that closes a status block. */
export const STATUS_BLOCK_END = "---END_RALPH_STATUS---";

/** The values of a status block's `STATUS` field. */
export const STATUS_VALUES = Object.freeze(["IN_PROGRESS", "COMPLETE", "BLOCKED"] as const);

/** One value of a status block's `STATUS` field. */
export type StatusValue = (typeof STATUS_VALUES)[number];

/** The values of a status block's `TESTS_STATUS` field. */
export const TESTS_STATUS_VALUES = Object.freeze(["PASSING", "FAILING", "NOT_RUN"] as const);

/** One value of a status block's `TESTS_STATUS` field. */
export type TestsStatus = (typeof TESTS_STATUS_VALUES)[number];

/** The values of a status block's `WORK_TYPE` field. */
export const WORK_TYPES = Object.freeze([
  "IMPLEMENTATION",
  "TESTING",
  "DOCUMENTATION",
  "REFACTORING",
] as const);

/** One value of a status block's `WORK_TYPE` field. */
export type WorkType = (typeof WORK_TYPES)[number];

/** The fields a status block knows, in the template's order. Others are kept but not read. */
export const STATUS_BLOCK_FIELDS = Object.freeze([
  "STATUS",
  "TASKS_COMPLETED_THIS_LOOP",
  "FILES_MODIFIED",
  "TESTS_STATUS",
  "WORK_TYPE",
  "EXIT_SIGNAL",
  "RECOMMENDATION",
] as const);

/** The name of one known status block field. */
export type StatusBlockField = (typeof STATUS_BLOCK_FIELDS)[number];

/**
 * The `---RALPH_STATUS---` block an agent ends its answer with (or its YAML form, `RALPH_STATUS:`
 * and the field lines under it), read field by field.
 * Every known field is `null` when the block does not have it or its value is malformed;
 * a malformed value is described in {@link StatusBlock.problems}.
 */
export interface StatusBlock {
  /** `STATUS`: whether the agent says the work is in progress, complete or blocked. */
  readonly status: StatusValue | null;
  /** `TASKS_COMPLETED_THIS_LOOP`: how many tasks the agent says it finished in this run. */
  readonly tasksCompletedThisLoop: number | null;
  /** `FILES_MODIFIED`: how many files the agent says it changed in this run. */
  readonly filesModified: number | null;
  /** `TESTS_STATUS`: the state of the tests as the agent reports it. */
  readonly testsStatus: TestsStatus | null;
  /** `WORK_TYPE`: the kind of work this run did. */
  readonly workType: WorkType | null;
  /** `EXIT_SIGNAL`: the agent's explicit judgment that the whole project is complete. */
  readonly exitSignal: boolean | null;
  /** `RECOMMENDATION`: the agent's one-line summary of what to do next, markup removed. */
  readonly recommendation: string | null;
  /**
   * Every `KEY: value` line of the block, keyed as written (markup and list bullets removed,
   * case kept), unknown keys included. A key written twice keeps its last value.
   */
  readonly fields: Record<string, string>;
  /** Malformed, duplicated or misspelled fields, each with its line and column in the text. */
  readonly problems: Diagnostic[];
  /** 1-based line of the block's opening marker in the text (the YAML form: `RALPH_STATUS:`). */
  readonly line: number;
  /** 1-based line of the block's closing marker in the text (the YAML form: its last line). */
  readonly endLine: number;
}

import {
  STATUS_BLOCK_END,
  STATUS_BLOCK_START,
  type StatusValue,
  type TestsStatus,
  type WorkType,
} from "@loop/core";

/** The fields of a status block a scripted answer ends with, every one of them given. */
export interface ScriptedStatusFields {
  readonly status: StatusValue;
  readonly tasksCompletedThisLoop: number;
  readonly filesModified: number;
  readonly testsStatus: TestsStatus;
  readonly workType: WorkType;
  readonly exitSignal: boolean;
  readonly recommendation: string;
}

/**
 * An agent's answer as the loop's prompt asks for it: the prose, a blank line, then the
 * `---RALPH_STATUS---` … `---END_RALPH_STATUS---` block with every field, in the template's
 * order.
 *
 * @param summary - the prose before the block.
 * @param fields - the block's values.
 */
export function answerWithStatusBlock(summary: string, fields: ScriptedStatusFields): string {
  return [
    summary,
    "",
    STATUS_BLOCK_START,
    `STATUS: ${fields.status}`,
    `TASKS_COMPLETED_THIS_LOOP: ${fields.tasksCompletedThisLoop}`,
    `FILES_MODIFIED: ${fields.filesModified}`,
    `TESTS_STATUS: ${fields.testsStatus}`,
    `WORK_TYPE: ${fields.workType}`,
    `EXIT_SIGNAL: ${fields.exitSignal}`,
    `RECOMMENDATION: ${fields.recommendation}`,
    STATUS_BLOCK_END,
  ].join("\n");
}

import * as z from "zod";
import { AgentProcessRecordSchema } from "./agent-process-record.js";
import {
  countField,
  expected,
  idField,
  sectionField,
  textField,
  timestampField,
} from "./state-fields.js";

/**
 * One worker of a parallel run (`loop_state.json`'s `workers`): the task it runs and where.
 * Written before the worker's agent starts and removed once its iteration is settled, so a loop
 * killed while workers ran leaves each here, and the next run resumes its working copy (the work
 * saved there is never lost) and stops what is left of its agent.
 */
export const WorkerRecordSchema = sectionField(
  {
    task_id: idField("The task the worker runs."),
    branch: textField("What holds the task's work (the git branch)."),
    path: textField("The task's working copy, where its agent runs."),
    iteration: countField("The iteration the worker runs."),
    attempt: countField("Which attempt at the task it is, from 1."),
    started_at: timestampField("When the worker started its agent."),
    agent_process: AgentProcessRecordSchema.optional(),
    merge_process: AgentProcessRecordSchema.optional().describe(
      "The merge agent resolving a conflict of the task's work, while it runs.",
    ),
  },
  "A worker running a task.",
);

/** `loop_state.json`'s `workers`: the workers of a parallel run running now. */
export const WorkersFieldSchema = z
  .array(WorkerRecordSchema, expected("a list of workers"))
  .optional()
  .describe(
    "Parallel runs (`loop run --parallel`): one entry per worker running a task now (absent or empty: none).",
  );

/** One entry of `loop_state.json`'s `workers`, as persisted (snake_case). */
export type WorkerRecord = z.output<typeof WorkerRecordSchema>;

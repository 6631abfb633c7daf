import * as z from "zod";
import { AgentProcessRecordSchema } from "./agent-process-record.js";
import { PersistedCircuitBreakerSchema } from "./persisted-circuit-breaker.js";
import { PersistedRateWindowSchema } from "./persisted-rate-window.js";
import { PersistedStopCountersSchema } from "./persisted-stop-counters.js";
import { RunRecordSchema } from "./run-record.js";
import {
  amountField,
  booleanField,
  countField,
  expected,
  idListField,
  nullableIdField,
  sectionField,
  textField,
  timestampField,
} from "./state-fields.js";
import { WorkersFieldSchema } from "./worker-record.js";

/**
 * The `loop_state.json` schema version this package reads and writes. A document without
 * `schema_version` (written by the seed's Python loop) is version 1. The version only changes
 * when a change is not an added optional field.
 */
export const LOOP_STATE_SCHEMA_VERSION = 1;

/** `loop_state.json`'s `loop_metadata`, exactly as the seed's canonical schema has it. */
const LoopMetadataSchema = sectionField(
  {
    plan_path: textField("Path of the plan the loop runs over; empty for a plan without a path."),
    started_at: timestampField("When the loop first started (its first run)."),
    last_update: timestampField("When the state was last written."),
    iterations: countField("Iterations run so far, over every run of the loop."),
  },
  "The loop's plan, times and iteration count.",
);

const taskAttemptsMessage = expected("a mapping of task id to attempts");

/**
 * Schema of `loop_state.json`: the seed's canonical fields (`current_task_id`,
 * `completed_tasks`, `failed_tasks`, `completion_indicators`, `loop_metadata`) with their exact
 * names, `schema_version`, and the engine's optional fields. Every field's message names what
 * would be valid (`completion_indicators: expected an integer ≥ 0, got -1`).
 *
 * Unknown fields are kept, at the top level and inside every section, so a document written by
 * a newer version survives being read and written back by this one.
 *
 * docs/state-and-logs.md describes every field.
 */
export const LoopStateSchema = z.looseObject(
  {
    schema_version: z
      .literal(
        LOOP_STATE_SCHEMA_VERSION,
        expected(`${LOOP_STATE_SCHEMA_VERSION} (the loop_state schema version this package reads)`),
      )
      .default(LOOP_STATE_SCHEMA_VERSION)
      .describe("Version of this schema; absent means 1."),
    current_task_id: nullableIdField("The task being worked on; null when none."),
    completed_tasks: idListField("Ids of the tasks completed, in completion order."),
    failed_tasks: idListField("Ids of the tasks given up on after their attempts."),
    completion_indicators: countField("Iterations that counted as completion indicators."),
    loop_metadata: LoopMetadataSchema,
    task_attempts: z
      .record(z.string(), countField("Attempts made at the task."), taskAttemptsMessage)
      .optional()
      .describe("Attempts made per task id (absent: none)."),
    circuit_breaker: PersistedCircuitBreakerSchema.optional(),
    rate_window: PersistedRateWindowSchema.nullable().optional(),
    cost_usd: amountField("Cost reported by the agent so far, in US dollars.").optional(),
    session_id: nullableIdField(
      "The agent's session id to resume; replaced by each new one, never appended.",
    ).optional(),
    stop_counters: PersistedStopCountersSchema.optional(),
    run: RunRecordSchema.optional(),
    agent_process: AgentProcessRecordSchema.optional(),
    workers: WorkersFieldSchema,
    transcript_lines: countField(
      "Stop-hook loops: lines of the session transcript already read at the previous stop.",
    ).optional(),
    stop_hook_block_cap: sectionField(
      {
        cap: countField("Claude Code's CLAUDE_CODE_STOP_HOOK_BLOCK_CAP as the hook saw it."),
        iteration: countField("The loop's iteration when the cap ended the turn."),
        at: timestampField("When the hook saw it."),
        overridden: booleanField(
          "true: Claude Code overrode a block of the hook; false: the hook let the stop through, its next block would have been overridden.",
        ),
      },
      "Stop-hook loops: the last time Claude Code's cap on Stop-hook blocks in a row ended the loop's turn.",
    ).optional(),
  },
  expected("a JSON object (the loop_state document)"),
);

/**
 * The `loop_state.json` document, as persisted: snake_case, timestamps as ISO 8601 strings.
 * Unknown fields (from newer versions) are kept as they are. Convert the engine sections with
 * `toCircuitBreakerState`, `toRateWindow`, `toStopCounters` and their `from…` counterparts.
 */
export type LoopState = z.output<typeof LoopStateSchema>;

import type { z } from "zod";
import { EXIT_REASONS } from "../policy/exit-reasons.js";
import { AgentReportSchema } from "./agent-report.js";
import {
  amountField,
  choiceField,
  countField,
  idField,
  nullableChoiceField,
  sectionField,
  timestampField,
} from "./state-fields.js";
import { UsageLimitRecordSchema } from "./usage-limit-record.js";

/**
 * `loop_state.json`'s `run`: the current (or last) run of the loop — one invocation, from
 * `startRun` to its exit. A loop resumed after a crash or an exit is a new run over the same
 * state. A `status` of `running` found when a loop starts means the previous run did not exit
 * cleanly (it crashed or was killed).
 */
export const RunRecordSchema = sectionField(
  {
    run_id: idField("Identifier of the run, from the engine's id generator."),
    started_at: timestampField("When the run started; the time limit counts from here."),
    status: choiceField(["running", "exited"], "Whether the run is going on or has exited."),
    exit_reason: nullableChoiceField(
      EXIT_REASONS,
      "Why the run exited (an exit reason code); null while it is running.",
    ),
    iterations_at_start: countField(
      "loop_metadata.iterations when the run started: iterations of this run = iterations − this.",
    ),
    cost_usd_at_start: amountField(
      "cost_usd when the run started: cost of this run = cost_usd − this.",
    ),
    agent_report: AgentReportSchema.optional().describe(
      "A run that exited blocked or needs_input: what the agent said (absent otherwise).",
    ),
    usage_limit: UsageLimitRecordSchema.optional().describe(
      "A run that exited usage_limit: the limit that stopped it (absent otherwise).",
    ),
  },
  "The current or last run of the loop.",
);

/** `loop_state.json`'s `run`, as persisted (snake_case). */
export type RunRecord = z.output<typeof RunRecordSchema>;

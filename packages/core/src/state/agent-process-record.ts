import type { z } from "zod";
import { countField, idField, sectionField, textField, timestampField } from "./state-fields.js";

/**
 * `loop_state.json`'s `agent_process`: the agent process an iteration started, written before
 * the process starts and removed once the executor has seen it end. Found when a loop starts, it
 * means the previous run was killed (or crashed) while its agent ran: the agent, in a process
 * group of its own, may still be running, and the new run asks its executor to stop it
 * (`Executor.stopSurvivors`) before it starts another.
 */
export const AgentProcessRecordSchema = sectionField(
  {
    token: idField(
      "A random marker the executor puts in the agent's environment (LOOP_AGENT_TOKEN), which its descendants inherit.",
    ),
    command: textField("The program the executor started."),
    host: textField("The host it runs on; a survivor is looked for on this host only."),
    iteration: countField("The iteration that started it."),
    started_at: timestampField("When the iteration started it."),
    pgid: countField(
      "Its process group id (the agent leads its own group); absent until the process is started.",
    ).optional(),
    process_start: idField(
      "What tells the group's leader from a later process given the same pid: on Linux `linux:<boot id>:<start time in clock ticks>` (/proc/<pid>/stat); absent where it cannot be read.",
    ).optional(),
  },
  "The agent process running now (absent when none): what a later run needs to find and stop it if this run is killed.",
);

/** `loop_state.json`'s `agent_process`, as persisted (snake_case). */
export type AgentProcessRecord = z.output<typeof AgentProcessRecordSchema>;

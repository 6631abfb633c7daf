import type { z } from "zod";
import { countField, sectionField, timestampField } from "../state/state-fields.js";

/**
 * Schema of `loop_metrics.json`, the seed's aggregated metrics:
 * `{"iterations": 5, "tasks_completed": 5, "tasks_failed": 0, "last_update": "…"}`.
 * Unknown fields are kept. Metrics are best-effort: the state (`loop_state.json`) is the record.
 */
export const LoopMetricsSchema = sectionField(
  {
    iterations: countField("Iterations run so far."),
    tasks_completed: countField("Tasks completed so far."),
    tasks_failed: countField("Tasks given up on so far."),
    last_update: timestampField("When the metrics were last written, ISO 8601."),
  },
  "The loop_metrics document.",
);

/** The `loop_metrics.json` document, as persisted (snake_case). */
export type LoopMetrics = z.output<typeof LoopMetricsSchema>;

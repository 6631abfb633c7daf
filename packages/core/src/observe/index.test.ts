import { expect, it } from "vitest";
import * as observe from "./index.js";

it("exports exactly the observe API", () => {
  expect(Object.keys(observe).sort()).toEqual([
    "DECISION_EVENT_NAMES",
    "DecisionEventError",
    "DecisionEventSchema",
    "LoopMetricsSchema",
    "REDACTED",
    "bestEffort",
    "createDecisionEvent",
    "parseDecisionEvent",
    "readMetrics",
    "redactSecrets",
    "updateMetrics",
  ]);
});

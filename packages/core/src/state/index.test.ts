import { expect, it } from "vitest";
import * as state from "./index.js";

it("exports exactly the state API", () => {
  expect(Object.keys(state).sort()).toEqual([
    "LOOP_STATE_SCHEMA_VERSION",
    "LoopStateSchema",
    "PersistedCircuitBreakerSchema",
    "PersistedRateWindowSchema",
    "PersistedStopCountersSchema",
    "RunRecordSchema",
    "StateLockedError",
    "StateStoreError",
    "StateValidationError",
    "UnsupportedStoreError",
    "assertSafeTerminalId",
    "createInitialState",
    "createStateManager",
    "formatTimestamp",
    "fromCircuitBreakerState",
    "fromRateWindow",
    "fromStopCounters",
    "getTerminalId",
    "isIsoTimestamp",
    "isSafeTerminalId",
    "parseTimestamp",
    "sanitizeTerminalId",
    "startRun",
    "toCircuitBreakerState",
    "toRateWindow",
    "toStopCounters",
  ]);
});

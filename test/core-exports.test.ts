import { describe, expect, it } from "vitest";

// The public API of @loop/core is deliberate: this pins the runtime exports of the built package
// (dist/, which `pnpm test` builds first). Adding or removing an export means changing this list
// in the same commit, on purpose.

const expected = [
  "ABANDON_AFTER_ABORT_MS",
  "AgentProcessRecordSchema",
  "AgentReportSchema",
  "CONFIG_SCHEMA_ID",
  "ConfigError",
  "DECISION_EVENT_NAMES",
  "DEFAULT_CONFIG",
  "DEFAULT_OPTIONAL_HEADINGS",
  "DEFAULT_PROMPT_TEMPLATE",
  "DEFAULT_RESET_PARTS",
  "DecisionEventError",
  "DecisionEventSchema",
  "DiagnosticsError",
  "EXIT_REASONS",
  "EmptyPlanError",
  "LOOP_INSTRUCTIONS_TEMPLATE",
  "LOOP_STATE_SCHEMA_VERSION",
  "LoopConfigSchema",
  "LoopError",
  "LoopMetricsSchema",
  "LoopStateSchema",
  "MAX_USAGE_LIMIT_WAIT_MS",
  "PROMPT_PLACEHOLDERS",
  "PROMPT_PLACEHOLDER_NAMES",
  "PersistedCircuitBreakerSchema",
  "PersistedRateWindowSchema",
  "PersistedStopCountersSchema",
  "PlanInUseError",
  "PlanParseError",
  "PlanUpdateError",
  "PrdParseError",
  "PrdUnknownStoryError",
  "PrdUpdateError",
  "PromptTemplateError",
  "REDACTED",
  "REQUIREMENT_SECTIONS",
  "RESET_PARTS",
  "RunRecordSchema",
  "SHARED_LIMITS_RETRY_DELAYS_MS",
  "STATUS_BLOCK_END",
  "STATUS_BLOCK_FIELDS",
  "STATUS_BLOCK_START",
  "STATUS_BLOCK_TEMPLATE",
  "STATUS_VALUES",
  "SharedLimitsError",
  "StateLockedError",
  "StateStoreError",
  "StateValidationError",
  "TESTS_STATUS_VALUES",
  "UNKNOWN_RESET_WAIT_MS",
  "UnsupportedExecutorError",
  "UnsupportedSharedLimitsError",
  "UnsupportedSpecificationError",
  "UnsupportedStoreError",
  "UsageLimitRecordSchema",
  "WORK_TYPES",
  "WorkerRecordSchema",
  "agentReportOf",
  "analyzeResponse",
  "assertSafeTerminalId",
  "bestEffort",
  "buildPrompt",
  "checkCircuit",
  "checkConfig",
  "checkRateLimit",
  "checkSharedLimitValues",
  "claimSharedCall",
  "configJsonSchema",
  "contentWords",
  "countsAsCompletionIndicator",
  "createDecisionEvent",
  "createInitialState",
  "createLoop",
  "createPlanCache",
  "createStateManager",
  "executeWithTimeout",
  "extractUserConcerns",
  "formatDiagnostic",
  "formatKeyPath",
  "formatTimestamp",
  "fromCircuitBreakerState",
  "fromRateWindow",
  "fromStopCounters",
  "getTerminalId",
  "initialCircuitBreakerState",
  "initialStopCounters",
  "isCompletionReason",
  "isErrorReason",
  "isExitReason",
  "isIsoTimestamp",
  "isParallelHeading",
  "isQuestionOnly",
  "isSafeTerminalId",
  "matchRequirements",
  "observeIteration",
  "observeOutcome",
  "parseClaudeTranscript",
  "parseConfig",
  "parseDecisionEvent",
  "parsePlan",
  "parsePlanRequirements",
  "parsePrd",
  "parsePromptTemplate",
  "parseStatusBlock",
  "parseTimestamp",
  "planLockId",
  "previewIteration",
  "projectLockId",
  "rateWindowStart",
  "readMetrics",
  "recordCall",
  "recordSharedCost",
  "redactSecrets",
  "releaseSharedCall",
  "renderTemplate",
  "resetState",
  "resolveConfig",
  "resolveExitSignal",
  "runLoop",
  "sanitizeTerminalId",
  "scheduleTasks",
  "selectNextTask",
  "sharedCountersOf",
  "sharedUsage",
  "shouldExit",
  "similarity",
  "startRun",
  "storyDependenciesMet",
  "storyTasks",
  "systemClock",
  "taskDependencies",
  "toCircuitBreakerState",
  "toRateWindow",
  "toStopCounters",
  "toUsageLimitRecord",
  "updateMetrics",
  "updatePlan",
  "updatePrd",
  "updateStopCounters",
  "verifyCompletion",
];

type Core = typeof import("@loop/core");
// Through a variable, so type-checking does not need a build.
const distEntry = new URL("../packages/core/dist/index.js", import.meta.url).href;
const loadDist = () => import(distEntry) as Promise<Core>;

describe("@loop/core public exports", () => {
  it("the built dist/index.js exports exactly the pinned list", async () => {
    const core = await loadDist();
    expect(Object.keys(core).sort()).toEqual(expected);
  });

  it("the sources export the same list as the build", async () => {
    const core = await import("../packages/core/src/index.js");
    expect(Object.keys(core).sort()).toEqual(expected);
  });

  it("the functions the plan and config issue promises are callable from the build", async () => {
    const core = await loadDist();
    const plan = core.parsePlan("- [ ] TASK-001 Do it\n");
    expect(plan.tasks[0]).toMatchObject({ id: "TASK-001", done: false, line: 1 });
    expect(core.updatePlan("- [ ] TASK-001 Do it\n", { check: ["TASK-001"] })).toBe(
      "- [x] TASK-001 Do it\n",
    );
    expect(core.parseConfig("").exit_policy.min_completion_indicators).toBe(2);
    expect(core.LoopError.isInstance(new core.ConfigError({ issues: [{ message: "x" }] }))).toBe(
      true,
    );
  });
});

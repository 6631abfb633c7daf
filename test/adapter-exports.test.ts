import { describe, expect, it } from "vitest";

// The public API of each adapter package is deliberate: this pins the runtime exports of the
// built packages (dist/, which `pnpm test` builds first).

const pinned: Record<string, string[]> = {
  exec: [
    "AGENT_TOKEN_VARIABLE",
    "CommandExecutor",
    "DEFAULT_KILL_GRACE_MS",
    "DEFAULT_TAIL_BYTES",
    "REMOVED_ENV_VARIABLES",
    "aiderExecutor",
    "ampExecutor",
    "codexExecutor",
    "defaultParse",
    "geminiExecutor",
    "gitProgress",
    "stopAgentSurvivors",
  ],
  git: [
    "DEFAULT_LOCK_TIMEOUT_MS",
    "GitCommandError",
    "GitVersionError",
    "PlanOutsideRepositoryError",
    "RepositoryError",
    "WorkspaceStateError",
    "gitWorkspaces",
    "safeTaskId",
  ],
  postgres: [
    "DEFAULT_EVENT_BUFFER_LIMIT",
    "DEFAULT_LEASE_MS",
    "DEFAULT_LOG_RETRY_MS",
    "DEFAULT_POSTGRES_SCHEMA",
    "DEFAULT_RECONNECT_WITHIN_MS",
    "LATEST_SCHEMA_VERSION",
    "LeaseLostError",
    "PostgresLogError",
    "SchemaVersionError",
    "createPostgresLogger",
    "createPostgresStateStore",
    "migratePostgresSchema",
  ],
  cli: ["CLI_EXIT_CODES", "CLI_VERSION", "processIo", "runCli"],
  claude: [
    "ClaudeExecutor",
    "DEFAULT_RALPH_LOOP_STATE_PATH",
    "DEFAULT_STOP_HOOK_BLOCK_CAP",
    "STOP_HOOK_BLOCK_CAP_VARIABLE",
    "buildClaudeArgs",
    "createClaudeStreamParser",
    "decideStop",
    "detectUsageLimit",
    "handleStopHook",
    "isTransientOverload",
    "parseClaudeStream",
    "parseRalphLoopState",
    "readStopHookBlockCap",
    "skipPermissionsProblem",
    "stopHookTerminalId",
    "toExecutionResult",
    "toHookOutput",
    "withRalphLoopIteration",
  ],
  memory: [
    "MemoryLogger",
    "MemoryStateStore",
    "completesTask",
    "createMemorySharedLimits",
    "createScriptedExecutor",
    "createTestClock",
    "fails",
    "hangs",
    "hitsUsageLimit",
    "makesNoProgress",
    "memoryPlan",
  ],
  fs: [
    "ConfigNotFoundError",
    "DEFAULT_ITERATION_LOG_KEEP",
    "DEFAULT_LOG_KEEP",
    "DEFAULT_LOG_MAX_BYTES",
    "LogWriteError",
    "PlanNotFoundError",
    "StatusFileError",
    "StatusWriteSchema",
    "atomicWriteFile",
    "createFileSharedLimits",
    "createFileStateStore",
    "createIterationLog",
    "createJsonlLogger",
    "createStatusFile",
    "createVerifierLog",
    "filePlan",
    "findInvalidUtf8",
    "listIterationLogTerminals",
    "listIterationLogs",
    "loadConfigFile",
  ],
};

describe.each(Object.entries(pinned))("@loop/%s public exports", (name, expected) => {
  it("the built dist/index.js exports exactly the pinned list", async () => {
    const entry = new URL(`../packages/${name}/dist/index.js`, import.meta.url).href;
    const module = (await import(entry)) as Record<string, unknown>;
    expect(Object.keys(module).sort()).toEqual(expected);
  });
});

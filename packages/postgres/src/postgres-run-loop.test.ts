import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  type Clock,
  type DecisionEvent,
  type Logger,
  LoopStateSchema,
  runLoop,
  systemClock,
} from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  MemoryLogger,
  memoryPlan,
} from "@loop/memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresLogger, type PostgresLogger } from "./postgres-logger.js";
import { createPostgresStateStore, type PostgresStateStore } from "./postgres-state-store.js";
import {
  describeWithPostgres,
  dropSchema,
  howToStart,
  testPool,
  uniqueSchemaName,
} from "./testing/test-database.js";

// runLoop end to end on PostgreSQL: the state and the decision log in the database, read back
// as the loop wrote them; then a run during which the server is restarted.

const run = promisify(execFile);
const serverScript = fileURLToPath(new URL("../../../scripts/postgres-server.sh", import.meta.url));

const plan = (count: number) =>
  `${Array.from({ length: count }, (_, index) => `- [ ] TASK-00${index + 1} Task ${index + 1}`).join("\n")}\n`;

/** A logger that hands every event to both loggers: what the loop logged, and the database. */
function tee(memory: MemoryLogger, database: PostgresLogger): Logger {
  return {
    log(event: DecisionEvent) {
      memory.log(event);
      database.log(event);
    },
    flush: () => database.flush(),
  };
}

/** The state document as stored, parsed. */
async function storedState(store: PostgresStateStore, terminalId: string) {
  const text = await store.get(terminalId, "loop_state");
  return LoopStateSchema.parse(JSON.parse(text ?? "null"));
}

describeWithPostgres("runLoop on PostgreSQL", (url) => {
  const pool = testPool(url);
  const schema = uniqueSchemaName("run_loop");
  afterAll(async () => {
    await dropSchema(pool, schema);
    await pool.end();
  });

  it("keeps the loop's state and decision events in the database, readable as the loop wrote them", async () => {
    const store = createPostgresStateStore({ pool, schema, runId: "e2e-run" });
    const database = createPostgresLogger({ pool, schema, runId: "e2e-run" });
    const memory = new MemoryLogger();
    const clock = createTestClock();
    const result = await runLoop({
      plan: memoryPlan(plan(3), { path: "e2e-plan.md" }),
      executor: createScriptedExecutor(
        [completesTask(), completesTask(), completesTask({ exitSignal: true })],
        { clock },
      ),
      store,
      logger: tee(memory, database),
      clock,
      terminalId: "e2e",
      generateRunId: () => "e2e-run",
    });
    expect(result.complete).toBe(true);
    expect(result.tasksCompleted).toEqual(["TASK-001", "TASK-002", "TASK-003"]);

    const state = await storedState(store, "e2e");
    expect(state.completed_tasks).toEqual(["TASK-001", "TASK-002", "TASK-003"]);
    expect(state.loop_metadata.iterations).toBe(3);
    expect(await store.get("e2e", "loop_state", "backup")).not.toBeNull();
    expect(await store.get("e2e", "loop_metrics")).not.toBeNull();

    const read = await database.readEvents({ terminalId: "e2e", runId: "e2e-run" });
    expect(read.skipped).toBe(0);
    expect(memory.events.length).toBeGreaterThanOrEqual(7); // 3 × start and end, and the exit
    expect(read.events).toEqual(memory.events);
    expect(await store.lease("e2e")).toBeNull(); // the loop released its lease
    await Promise.all([store.close(), database.close()]);
  });
});

/** When the server at `url` started: changes with every restart. */
async function serverStart(url: string): Promise<string> {
  const pool = testPool(url);
  try {
    const result = await pool.query<{ started: Date }>(
      "SELECT pg_postmaster_start_time() AS started",
    );
    return result.rows[0]?.started.toISOString() ?? "";
  } finally {
    await pool.end();
  }
}

/** Starts a server of the test's own (its folder under /tmp), so restarting it troubles no other test. */
async function startPrivateServer(folder: string): Promise<string> {
  const { stdout } = await run("bash", [serverScript, "start"], {
    env: { ...process.env, LOOP_POSTGRES_DIR: folder },
  });
  const match = /LOOP_TEST_POSTGRES_URL=(\S+)/.exec(stdout);
  if (match?.[1] === undefined) throw new Error(`the server script printed no URL: ${stdout}`);
  return match[1];
}

const canRunServer = process.env.LOOP_TEST_POSTGRES_URL !== undefined || process.env.CI;
(canRunServer ? describe : describe.skip)(
  `runLoop while its PostgreSQL server restarts${canRunServer ? "" : ` (skipped: ${howToStart})`}`,
  () => {
    const folder = `/tmp/loop-postgres-restart-${randomBytes(4).toString("hex")}`;
    const environment = { ...process.env, LOOP_POSTGRES_DIR: folder };
    let url = "";
    beforeAll(async () => {
      url = await startPrivateServer(folder);
    }, 120_000);
    afterAll(async () => {
      await run("bash", [serverScript, "destroy"], { env: environment });
    }, 60_000);

    it("the server down for a moment after iteration 2: the loop goes on, no state and no event lost", async () => {
      // The system clock, recording the pauses the store makes between attempts.
      const pauses: number[] = [];
      const clock: Clock = {
        now: () => systemClock.now(),
        sleep: (ms, signal) => {
          pauses.push(ms);
          return systemClock.sleep(ms, signal);
        },
      };
      const store = createPostgresStateStore({
        connectionString: url,
        clock,
        leaseMs: 60_000,
        reconnectWithinMs: 60_000, // a loaded machine may take a while to start the server
      });
      const database = createPostgresLogger({ connectionString: url, runId: "restarted" });
      const memory = new MemoryLogger();
      // The system clock: the restart is real I/O, which a virtual clock would time out.
      let restarts = 0;
      let restarting: Promise<unknown> = Promise.resolve();
      const startedBefore = await serverStart(url);
      const result = await runLoop({
        plan: memoryPlan(plan(3), { path: "restart-plan.md" }),
        executor: createScriptedExecutor([
          completesTask(),
          async () => {
            // The server goes down as the agent finishes, and comes back 300 ms later: the
            // loop's next writes meet a refused connection and are tried again.
            await run("bash", [serverScript, "stop"], { env: environment });
            restarting = new Promise((resolve) => setTimeout(resolve, 300)).then(() =>
              run("bash", [serverScript, "start"], { env: environment }),
            );
            restarts += 1;
            return completesTask();
          },
          completesTask({ exitSignal: true }),
        ]),
        store,
        logger: tee(memory, database),
        terminalId: "restarted",
        generateRunId: () => "restarted",
      });
      await restarting;
      expect(restarts).toBe(1);
      expect(await serverStart(url)).not.toBe(startedBefore);
      // The store's first write after the stop met a refused connection and was tried again
      // (pauses of 50 ms, 100 ms…; the lease renewals sleep 20 000 ms).
      expect(pauses.filter((ms) => ms < 20_000).slice(0, 2)).toEqual([50, 100]);
      expect(result.exitReason).not.toBe("state_error");
      expect(result.complete).toBe(true);
      const state = await storedState(store, "restarted");
      expect(state.completed_tasks).toEqual(["TASK-001", "TASK-002", "TASK-003"]);
      expect(state.loop_metadata.iterations).toBe(3);
      await database.flush();
      const read = await database.readEvents({ terminalId: "restarted", runId: "restarted" });
      expect(read.events).toEqual(memory.events);
      await Promise.all([store.close(), database.close()]);
    }, 120_000);
  },
);

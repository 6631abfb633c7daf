import {
  type CallClaim,
  type DecisionEventOf,
  type ExecutionRequest,
  runLoop,
  type SharedLimitsCaller,
  SharedLimitsError,
} from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePostgresSchema } from "./migrate-postgres-schema.js";
import {
  createPostgresSharedLimits,
  type PostgresSharedLimits,
  type PostgresSharedLimitsOptions,
} from "./postgres-shared-limits.js";
import { bundleWorker } from "./testing/bundle-worker.js";
import {
  describeWithPostgres,
  dropSchema,
  testPool,
  uniqueSchemaName,
} from "./testing/test-database.js";
import { startWorker } from "./testing/worker-process.js";

// The fleet's shared limits in one row of a real PostgreSQL server: claims at once (from two
// pools, and from several processes) get exactly the limit, the budget stops claims, windows of
// other hours count as empty, by the database's clock.

const hour = 3_600_000;
const caller: SharedLimitsCaller = { terminalId: "api", runId: "run-1" };
const unreachable = "postgres://loop@127.0.0.1:1/x";

const plan = (count: number) =>
  `${Array.from({ length: count }, (_, index) => `- [ ] TASK-00${index + 1} Task ${index + 1}`).join("\n")}\n`;

describe("createPostgresSharedLimits checks its options first", () => {
  const pool = { query: () => undefined, connect: () => undefined } as never;

  it("refuses invalid limits, names, schemas and connections, naming the option", () => {
    expect(() => createPostgresSharedLimits({ pool, maxCallsPerHour: 0 })).toThrow(RangeError);
    expect(() => createPostgresSharedLimits({ pool, maxCallsPerHour: 0 })).toThrow(
      "createPostgresSharedLimits: option `maxCallsPerHour` must be an integer ≥ 1 (or null for no limit), got 0",
    );
    expect(() => createPostgresSharedLimits({ pool, maxCallsPerHour: 1.5 })).toThrow(
      /option `maxCallsPerHour`/,
    );
    expect(() => createPostgresSharedLimits({ pool, maxCostUsd: -1 })).toThrow(
      "createPostgresSharedLimits: option `maxCostUsd` must be a finite amount ≥ 0 in US dollars (or null for no budget), got -1",
    );
    expect(() => createPostgresSharedLimits({ pool, name: "" })).toThrow(TypeError);
    expect(() => createPostgresSharedLimits({ pool, name: "" })).toThrow(
      'createPostgresSharedLimits: option `name` must be a non-empty string of at most 200 characters without NUL (the fleet\'s row in shared_limits), got ""',
    );
    expect(() => createPostgresSharedLimits({ pool, name: "x".repeat(201) })).toThrow(
      /option `name` .* got a string of 201 characters/,
    );
    expect(() => createPostgresSharedLimits({ pool, name: 7 as never })).toThrow(
      /option `name` .* got number/,
    );
    expect(() => createPostgresSharedLimits({ pool, name: "x".repeat(200) })).not.toThrow();
    expect(() => createPostgresSharedLimits({ pool, schema: "No-Such" })).toThrow(
      /option `schema`/,
    );
    expect(() =>
      createPostgresSharedLimits({ connectionString: unreachable, pool } as never),
    ).toThrow("createPostgresSharedLimits: give `connectionString` or `pool`, not both");
    expect(() => createPostgresSharedLimits({} as never)).toThrow(
      /createPostgresSharedLimits: Missing required option `connectionString`/,
    );
  });

  it("rejects a cost that is not a finite amount > 0, before any statement", async () => {
    const limits = createPostgresSharedLimits({ pool });
    for (const costUsd of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(limits.recordCost({ ...caller, costUsd })).rejects.toThrow(
        `PostgresSharedLimits.recordCost: costUsd must be a finite amount > 0 in US dollars, got ${costUsd}`,
      );
    }
    await expect(limits.recordCost({ ...caller, costUsd: 0 })).rejects.toBeInstanceOf(RangeError);
  });
});

describe("createPostgresSharedLimits on a server that cannot be reached", () => {
  it("rejects every method (never a guess), so the engine retries", async () => {
    const limits = createPostgresSharedLimits({ connectionString: unreachable, maxCostUsd: 5 });
    await expect(limits.claimCall(caller)).rejects.toThrow(/ECONNREFUSED/);
    await expect(limits.recordCost({ ...caller, costUsd: 1 })).rejects.toThrow(/ECONNREFUSED/);
    await expect(limits.releaseCall({ ...caller, windowStart: 0 })).rejects.toThrow(/ECONNREFUSED/);
    await expect(limits.readUsage()).rejects.toThrow(/ECONNREFUSED/);
    await limits.close();
    await limits.close();
    await expect(limits.readUsage()).rejects.toThrow(
      "createPostgresSharedLimits: these shared limits were closed",
    );
  });

  it("a loop on them retries with backoff, then stops with limits_error without calling the agent", async () => {
    const limits = createPostgresSharedLimits({ connectionString: unreachable, maxCostUsd: 5 });
    const clock = createTestClock();
    const executor = createScriptedExecutor(completesTask({ exitSignal: true }), { clock });
    const result = await runLoop({
      plan: memoryPlan(plan(1), { path: "plan.md" }),
      executor,
      store: new MemoryStateStore(),
      clock,
      sharedLimits: limits,
    });
    await limits.close();
    expect(result.exitReason).toBe("limits_error");
    expect(SharedLimitsError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toMatch(
      /^The shared limits "postgres" failed 9 times over 228 s \(the last: The shared limits "postgres" could not claim a call: .*ECONNREFUSED/,
    );
    expect(executor.calls).toEqual([]);
  });
});

describeWithPostgres("createPostgresSharedLimits on a real server", (url) => {
  const pool = testPool(url);
  const otherPool = testPool(url, "loop-postgres-tests-other");
  const schema = uniqueSchemaName("shared_limits");
  const opened: PostgresSharedLimits[] = [];
  let rows = 0;

  beforeAll(async () => {
    await migratePostgresSchema({ pool, schema });
  });
  afterAll(async () => {
    await Promise.all(opened.map((limits) => limits.close()));
    await dropSchema(pool, schema);
    await Promise.all([pool.end(), otherPool.end()]);
  });

  /** A row name no other test of the file uses. */
  const freshName = () => {
    rows += 1;
    return `fleet-${rows}`;
  };

  /** Shared limits on the test schema (on `pool` unless told), closed after the file. */
  function sharedLimits(
    settings: Omit<PostgresSharedLimitsOptions, "pool" | "connectionString" | "schema">,
    on = pool,
  ): PostgresSharedLimits {
    const limits = createPostgresSharedLimits({ pool: on, schema, ...settings });
    opened.push(limits);
    return limits;
  }

  interface StoredRow {
    readonly window_start_ms: number;
    readonly calls: number;
    readonly cost_usd: number;
    readonly updated_at: Date;
    readonly updated_by_terminal: string | null;
    readonly updated_by_run: string | null;
  }

  /** The row as stored; `undefined` when there is none. */
  async function storedRow(name: string): Promise<StoredRow | undefined> {
    const result = await pool.query<StoredRow>(
      `SELECT (extract(epoch FROM window_start) * 1000)::float8 AS window_start_ms, calls,
              cost_usd, updated_at, updated_by_terminal, updated_by_run
         FROM "${schema}".shared_limits WHERE name = $1`,
      [name],
    );
    return result.rows[0];
  }

  /** The current window by the database's clock, epoch ms. */
  async function databaseWindow(): Promise<number> {
    const result = await pool.query<{ window: number }>(
      `SELECT (extract(epoch FROM date_trunc('hour', now() AT TIME ZONE 'utc') AT TIME ZONE 'utc') * 1000)::float8 AS window`,
    );
    return result.rows[0]?.window ?? Number.NaN;
  }

  /**
   * Runs `work` (which makes its own rows) within one UTC hour of the database: a run that
   * crossed the top of an hour counted in two windows, and is run again, once.
   */
  async function inOneWindow(work: (window: number) => Promise<void>): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      const window = await databaseWindow();
      try {
        await work(window);
        return;
      } catch (error) {
        if (attempt > 0 || (await databaseWindow()) === window) throw error;
      }
    }
  }

  /** Moves the row's window by `hours` from the current one, by SQL. */
  async function moveWindow(name: string, hours: number, calls?: number): Promise<void> {
    await pool.query(
      `UPDATE "${schema}".shared_limits
          SET window_start = (date_trunc('hour', now() AT TIME ZONE 'utc') AT TIME ZONE 'utc')
                             + make_interval(hours => $2),
              calls = coalesce($3, calls)
        WHERE name = $1`,
      [name, hours, calls ?? null],
    );
  }

  it("50 claims at once through two pools and two instances grant exactly 20 of a limit of 20", async () => {
    await inOneWindow(async (window) => {
      const name = freshName();
      const first = sharedLimits({ name, maxCallsPerHour: 20 });
      const second = sharedLimits({ name, maxCallsPerHour: 20 }, otherPool);
      const claims: CallClaim[] = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          (index % 2 === 0 ? first : second).claimCall({
            terminalId: `terminal-${index % 5}`,
            runId: null,
          }),
        ),
      );
      const granted = claims.filter((claim) => claim.granted);
      expect(granted).toHaveLength(20);
      // Each granted claim saw its own count: 1 to 20, none twice.
      expect(granted.map((claim) => claim.usage.callsThisHour).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, index) => index + 1),
      );
      const refused = claims.filter((claim) => !claim.granted);
      expect(refused).toHaveLength(30);
      for (const claim of refused) {
        expect(claim.refusal).toBe("calls");
        if (claim.refusal !== "calls") continue;
        expect(claim.waitMs).toBeGreaterThan(0);
        expect(claim.waitMs).toBeLessThanOrEqual(hour);
        expect(claim.usage).toEqual({
          windowStart: window,
          resetAt: window + hour,
          callsThisHour: 20,
          maxCallsPerHour: 20,
          costUsd: 0,
          maxCostUsd: null,
        });
        // The wait is to the top of the next hour, by the database's clock.
        expect(claim.usage.resetAt - claim.waitMs).toBeGreaterThanOrEqual(window);
      }
      expect(await storedRow(name)).toMatchObject({ window_start_ms: window, calls: 20 });
    });
  });

  it("the budget: costs recorded until it is spent, then claims are refused with budget, before the calls", async () => {
    await inOneWindow(async () => {
      const name = freshName();
      const limits = sharedLimits({ name, maxCallsPerHour: 2, maxCostUsd: 1 });
      expect((await limits.claimCall(caller)).granted).toBe(true);
      expect(await limits.recordCost({ ...caller, costUsd: 0.25 })).toMatchObject({
        callsThisHour: 1,
        costUsd: 0.25,
        maxCostUsd: 1,
      });
      expect((await limits.claimCall(caller)).granted).toBe(true);
      expect((await limits.claimCall(caller)).granted).toBe(false); // the calls: 2 of 2
      expect(await limits.recordCost({ ...caller, costUsd: 0.75 })).toMatchObject({ costUsd: 1 });
      // Spent exactly, and the calls used up too: the refusal is the budget's.
      const refused = await limits.claimCall(caller);
      expect(refused).toMatchObject({
        granted: false,
        refusal: "budget",
        usage: { callsThisHour: 2, costUsd: 1, maxCostUsd: 1 },
      });
      expect(refused).not.toHaveProperty("waitMs");
      // A window of another hour has calls to give: still the budget.
      await moveWindow(name, -1);
      expect(await limits.claimCall(caller)).toMatchObject({ granted: false, refusal: "budget" });
      expect(await storedRow(name)).toMatchObject({ calls: 2, cost_usd: 1 });
    });
  });

  it("a row whose window is an earlier hour counts as empty: granted with calls 1, the cost kept", async () => {
    const name = freshName();
    const limits = sharedLimits({ name, maxCallsPerHour: 3, maxCostUsd: 10 });
    await limits.claimCall(caller);
    await limits.recordCost({ ...caller, costUsd: 2.5 });
    await moveWindow(name, -1, 3);
    expect((await limits.readUsage()).callsThisHour).toBe(0);
    const claim = await limits.claimCall(caller);
    expect(claim).toMatchObject({ granted: true, usage: { callsThisHour: 1, costUsd: 2.5 } });
    const row = await storedRow(name);
    expect(row).toMatchObject({
      calls: 1,
      cost_usd: 2.5,
      window_start_ms: claim.usage.windowStart,
    });
    // A cost recorded into a window of another hour moves the row to the current one, empty.
    await moveWindow(name, -5, 3);
    const usage = await limits.recordCost({ ...caller, costUsd: 0.5 });
    expect(usage).toMatchObject({ callsThisHour: 0, costUsd: 3 });
    expect(await storedRow(name)).toMatchObject({
      calls: 0,
      cost_usd: 3,
      window_start_ms: usage.windowStart,
    });
  });

  it("a row whose window is a later hour (a clock set back) counts as empty too", async () => {
    const name = freshName();
    const limits = sharedLimits({ name, maxCallsPerHour: 2 });
    await limits.claimCall(caller);
    await moveWindow(name, 2, 2);
    const claim = await limits.claimCall(caller);
    expect(claim).toMatchObject({ granted: true, usage: { callsThisHour: 1 } });
    expect(claim.usage.resetAt).toBe(claim.usage.windowStart + hour);
    expect(await storedRow(name)).toMatchObject({
      calls: 1,
      window_start_ms: claim.usage.windowStart,
    });
  });

  it("releaseCall takes one back in the window it was claimed in, never below 0", async () => {
    await inOneWindow(async () => {
      const name = freshName();
      const limits = sharedLimits({ name, maxCallsPerHour: 2 });
      const first = await limits.claimCall(caller);
      await limits.claimCall(caller);
      expect(await limits.claimCall(caller)).toMatchObject({ granted: false, refusal: "calls" });
      await limits.releaseCall({ ...caller, windowStart: first.usage.windowStart });
      expect(await storedRow(name)).toMatchObject({ calls: 1 });
      expect(await limits.claimCall(caller)).toMatchObject({ granted: true });
      await limits.releaseCall({ ...caller, windowStart: first.usage.windowStart });
      await limits.releaseCall({ ...caller, windowStart: first.usage.windowStart });
      await limits.releaseCall({ ...caller, windowStart: first.usage.windowStart });
      expect(await storedRow(name)).toMatchObject({ calls: 0 });
      expect((await limits.readUsage()).callsThisHour).toBe(0);
    });
  });

  it("releaseCall leaves a window of another hour alone, and a claim's window that is not the row's", async () => {
    const name = freshName();
    const limits = sharedLimits({ name, maxCallsPerHour: 5 });
    const claim = await limits.claimCall(caller);
    await moveWindow(name, -1, 4);
    const earlier = claim.usage.windowStart - hour;
    // The row's window is an earlier hour: neither its own window nor the claim's is current.
    await limits.releaseCall({ ...caller, windowStart: earlier });
    await limits.releaseCall({ ...caller, windowStart: claim.usage.windowStart });
    expect(await storedRow(name)).toMatchObject({ calls: 4 });
    await expect(limits.releaseCall({ ...caller, windowStart: Number.NaN })).rejects.toThrow(
      RangeError,
    );
  });

  it("readUsage: without a row nothing is counted (and no row is made); after claims, the counts", async () => {
    await inOneWindow(async (window) => {
      const name = freshName();
      const limits = sharedLimits({ name, maxCallsPerHour: 7, maxCostUsd: 3 });
      expect(await limits.readUsage()).toEqual({
        windowStart: window,
        resetAt: window + hour,
        callsThisHour: 0,
        maxCallsPerHour: 7,
        costUsd: 0,
        maxCostUsd: 3,
      });
      expect(await storedRow(name)).toBeUndefined();
      await limits.claimCall(caller);
      await limits.claimCall(caller);
      await limits.recordCost({ ...caller, costUsd: 1.25 });
      expect(await limits.readUsage()).toEqual({
        windowStart: window,
        resetAt: window + hour,
        callsThisHour: 2,
        maxCallsPerHour: 7,
        costUsd: 1.25,
        maxCostUsd: 3,
      });
      // Another instance of the same row reads the same counts (with its own limits).
      expect(await sharedLimits({ name }, otherPool).readUsage()).toMatchObject({
        callsThisHour: 2,
        costUsd: 1.25,
        maxCallsPerHour: null,
        maxCostUsd: null,
      });
    });
  });

  it("two names are independent rows in one schema", async () => {
    await inOneWindow(async () => {
      const teamA = sharedLimits({ name: freshName(), maxCallsPerHour: 1, maxCostUsd: 1 });
      const teamB = sharedLimits({ name: freshName(), maxCallsPerHour: 1, maxCostUsd: 1 });
      expect((await teamA.claimCall(caller)).granted).toBe(true);
      expect((await teamA.claimCall(caller)).granted).toBe(false);
      await teamA.recordCost({ ...caller, costUsd: 1 });
      expect(await teamB.readUsage()).toMatchObject({ callsThisHour: 0, costUsd: 0 });
      expect((await teamB.claimCall(caller)).granted).toBe(true);
      expect(await teamA.readUsage()).toMatchObject({ callsThisHour: 1, costUsd: 1 });
    });
  });

  it("records the caller of every change in the row", async () => {
    await inOneWindow(async () => {
      const name = freshName();
      const limits = sharedLimits({ name, maxCallsPerHour: 10 });
      await limits.claimCall({ terminalId: "api", runId: "run-1" });
      const claimed = await storedRow(name);
      expect(claimed).toMatchObject({ updated_by_terminal: "api", updated_by_run: "run-1" });
      await limits.recordCost({ terminalId: "web", runId: null, costUsd: 0.1 });
      const recorded = await storedRow(name);
      expect(recorded).toMatchObject({ updated_by_terminal: "web", updated_by_run: null });
      expect(recorded?.updated_at.getTime()).toBeGreaterThanOrEqual(
        claimed?.updated_at.getTime() ?? Number.POSITIVE_INFINITY,
      );
      const claim = await limits.claimCall({ terminalId: "cli", runId: "run-2" });
      expect(await storedRow(name)).toMatchObject({ updated_by_terminal: "cli", calls: 2 });
      await limits.releaseCall({
        terminalId: "worker",
        runId: "run-3",
        windowStart: claim.usage.windowStart,
      });
      expect(await storedRow(name)).toMatchObject({
        updated_by_terminal: "worker",
        updated_by_run: "run-3",
        calls: 1,
      });
    });
  });

  it("honours the signal: an aborted one rejects at once with its reason, counting nothing", async () => {
    const name = freshName();
    const limits = sharedLimits({ name, maxCallsPerHour: 10, maxCostUsd: 5 });
    const controller = new AbortController();
    const reason = new Error("the loop stopped");
    controller.abort(reason);
    const signal = controller.signal;
    await expect(limits.claimCall(caller, { signal })).rejects.toBe(reason);
    await expect(limits.recordCost({ ...caller, costUsd: 1 }, { signal })).rejects.toBe(reason);
    await expect(limits.releaseCall({ ...caller, windowStart: 0 }, { signal })).rejects.toBe(
      reason,
    );
    await expect(limits.readUsage({ signal })).rejects.toBe(reason);
    expect(await storedRow(name)).toBeUndefined();
  });

  it("honours the signal mid-statement: a claim waiting on a locked row rejects when it fires; the statement may finish", async () => {
    await inOneWindow(async () => {
      const name = freshName();
      const limits = sharedLimits({ name, maxCallsPerHour: 10 });
      await limits.claimCall(caller);
      const holder = await otherPool.connect();
      try {
        await holder.query("BEGIN");
        await holder.query(`SELECT * FROM "${schema}".shared_limits WHERE name = $1 FOR UPDATE`, [
          name,
        ]);
        const controller = new AbortController();
        const claim = limits.claimCall(caller, { signal: controller.signal });
        // Wait until the claim's UPDATE is on the server, waiting for the row lock.
        await expect
          .poll(
            async () =>
              (
                await pool.query(
                  `SELECT 1 FROM pg_stat_activity
                    WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE "' || $1 || '".shared_limits%'`,
                  [schema],
                )
              ).rowCount,
            { timeout: 10_000, interval: 20 },
          )
          .toBe(1);
        const reason = new Error("stopped while waiting");
        controller.abort(reason);
        // It rejects while the row is still locked: the abort did not wait for the statement.
        await expect(claim).rejects.toBe(reason);
        await holder.query("ROLLBACK");
      } finally {
        holder.release();
      }
      // The statement sent went on and counted its call once the lock was gone: safe.
      await expect
        .poll(async () => (await storedRow(name))?.calls, { timeout: 10_000, interval: 20 })
        .toBe(2);
    });
  });

  it("a row edited into something no implementation writes is an error, not a guess", async () => {
    const name = freshName();
    const limits = sharedLimits({ name, maxCallsPerHour: 10 });
    await limits.claimCall(caller);
    await pool.query(`UPDATE "${schema}".shared_limits SET calls = -3 WHERE name = $1`, [name]);
    await expect(limits.readUsage()).rejects.toThrow(
      `The row "${name}" of "${schema}".shared_limits holds calls -3 and cost_usd 0, which are not shared limits counters`,
    );
    await pool.query(`UPDATE "${schema}".shared_limits SET cost_usd = 'NaN' WHERE name = $1`, [
      name,
    ]);
    await expect(limits.claimCall(caller)).rejects.toThrow(/not shared limits counters/);
  });

  it("a row deleted under a running instance is made again: its claims and costs are still counted", async () => {
    const name = freshName();
    const limits = sharedLimits({ name, maxCallsPerHour: 10, maxCostUsd: 10 });
    await limits.claimCall(caller);
    await pool.query(`DELETE FROM "${schema}".shared_limits WHERE name = $1`, [name]);
    expect(await limits.recordCost({ ...caller, costUsd: 2 })).toMatchObject({ costUsd: 2 });
    await pool.query(`DELETE FROM "${schema}".shared_limits WHERE name = $1`, [name]);
    expect(await limits.claimCall(caller)).toMatchObject({
      granted: true,
      usage: { callsThisHour: 1, costUsd: 0 },
    });
  });

  it("migrates a new schema by itself, once, before its first statement", async () => {
    const own = uniqueSchemaName("shared_limits_migrate");
    const limits = createPostgresSharedLimits({ connectionString: url, schema: own });
    try {
      const claims = await Promise.all([limits.claimCall(caller), limits.claimCall(caller)]);
      expect(claims.every((claim) => claim.granted)).toBe(true);
      const versions = await pool.query(`SELECT version FROM "${own}".schema_migrations`);
      expect(versions.rowCount).toBe(3);
      const row = await pool.query(`SELECT name, calls FROM "${own}".shared_limits`);
      expect(row.rows).toEqual([{ name: "default", calls: expect.any(Number) }]);
    } finally {
      await limits.close();
      await dropSchema(pool, own);
    }
  });

  it("6 processes, each with its own pool, claiming until refused get exactly the limit of 40 together", async () => {
    const bundle = await bundleWorker("shared-limits-worker", "shared-limits-worker.ts");
    await inOneWindow(async (window) => {
      const name = freshName();
      const workers = Array.from({ length: 6 }, (_, worker) =>
        startWorker(bundle, { url, schema, name, maxCallsPerHour: 40, worker }),
      );
      await Promise.all(workers.map((worker) => worker.fact("ready")));
      for (const worker of workers) worker.send("go");
      const results = await Promise.all(workers.map((worker) => worker.fact("done")));
      await Promise.all(workers.map((worker) => worker.exited));
      const granted = results.map((result) => Number(result.granted));
      expect(granted.reduce((sum, count) => sum + count, 0)).toBe(40);
      for (const result of results) {
        expect(result).toMatchObject({
          refusal: "calls",
          usage: { windowStart: window, callsThisHour: 40, maxCallsPerHour: 40 },
        });
      }
      expect(await storedRow(name)).toMatchObject({ calls: 40, window_start_ms: window });
    });
  }, 60_000);

  it("two runLoops sharing one budget in PostgreSQL both stop with budget_exhausted", async () => {
    const name = freshName();
    const limits = sharedLimits({ name, maxCostUsd: 1 });
    const clock = createTestClock();
    const loop = (terminalId: string) => {
      const logger = new MemoryLogger();
      const executor = createScriptedExecutor(
        (request: ExecutionRequest) =>
          completesTask({ exitSignal: request.task?.id === "TASK-005", costUsd: 0.3 }),
        { clock },
      );
      const run = runLoop({
        plan: memoryPlan(plan(5), { path: `${terminalId}/plan.md` }),
        executor,
        store: new MemoryStateStore(),
        logger,
        clock,
        terminalId,
        sharedLimits: limits,
        config: { limits: { max_iterations: 50 } },
      });
      return { run, logger, executor };
    };
    const loops = [loop("a"), loop("b")];
    const results = await Promise.all(loops.map((entry) => entry.run));

    expect(results.map((result) => result.exitReason)).toEqual([
      "budget_exhausted",
      "budget_exhausted",
    ]);
    const row = await storedRow(name);
    const spent = row?.cost_usd ?? 0;
    // At least the budget; beyond it by at most the calls in flight (one per loop).
    expect(spent).toBeGreaterThanOrEqual(1);
    expect(spent).toBeLessThanOrEqual(1 + 2 * 0.3 + 1e-9);
    // Every call of either loop was recorded in the row.
    const total = results.reduce((sum, result) => sum + result.costUsd, 0);
    expect(total).toBeCloseTo(spent, 10);
    const calls = loops.reduce((sum, entry) => sum + entry.executor.calls.length, 0);
    expect(calls).toBe(Math.round(spent / 0.3));
    for (const entry of loops) {
      const exit = entry.logger.events.find(
        (event): event is DecisionEventOf<"loop_exit"> => event.event === "loop_exit",
      );
      expect(exit?.payload.shared_limits).toMatchObject({
        max_cost_usd: 1,
        max_calls_per_hour: null,
      });
      expect(exit?.payload.shared_limits?.cost_usd).toBeGreaterThanOrEqual(1);
    }
    expect(row?.updated_by_terminal).toMatch(/^(a|b)$/);
  });
});

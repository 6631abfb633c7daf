import { randomBytes } from "node:crypto";
import { type DecisionEvent, runLoop, StateLockedError } from "@loop/core";
import { completesTask, createScriptedExecutor, createTestClock, memoryPlan } from "@loop/memory";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { upsertDocument } from "./document-queries.js";
import { LeaseLostError } from "./lease-lost-error.js";
import { migratePostgresSchema } from "./migrate-postgres-schema.js";
import { createPostgresLogger } from "./postgres-logger.js";
import { createPostgresStateStore } from "./postgres-state-store.js";
import { tableNames } from "./table-names.js";
import { bundleWorker } from "./testing/bundle-worker.js";
import { startTcpProxy } from "./testing/tcp-proxy.js";
import {
  describeWithPostgres,
  dropSchema,
  testPool,
  uniqueSchemaName,
} from "./testing/test-database.js";
import { startWorker } from "./testing/worker-process.js";

// Faults on the shared test server: a connection terminated in the middle of a write, a
// holder cut off from the database, a holder killed with SIGKILL. Leases are short (2 to 3
// seconds: long enough to be refused first on a loaded machine) and every wait for one to
// expire is bounded (10 seconds).

/** Polls an assertion until it holds, for at most 10 seconds. */
const eventually = (assertion: () => unknown) =>
  vi.waitFor(assertion, { timeout: 10_000, interval: 50 });

describeWithPostgres("PostgresStateStore under faults", (url) => {
  const pool = testPool(url);
  const schema = uniqueSchemaName("faults");
  const tables = tableNames(schema);
  beforeAll(() => migratePostgresSchema({ pool, schema }));
  afterAll(async () => {
    await dropSchema(pool, schema);
    await pool.end();
  });

  async function storedDocument(terminalId: string) {
    const result = await pool.query<{
      current_text: Buffer;
      backup_text: Buffer | null;
      revision: string;
    }>(
      `SELECT current_text, backup_text, revision FROM ${tables.documents}
        WHERE terminal_id = $1 AND key = 'loop_state'`,
      [terminalId],
    );
    const row = result.rows[0];
    return {
      current: row?.current_text.toString("utf8") ?? null,
      backup: row?.backup_text?.toString("utf8") ?? null,
      revision: row?.revision ?? null,
    };
  }

  /** The backends of `applicationName` waiting for a row lock. */
  async function waitingBackends(applicationName: string): Promise<number[]> {
    const result = await pool.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
      [applicationName],
    );
    return result.rows.map((row) => row.pid);
  }

  it("a connection terminated in the middle of a write: the write is tried again and applied once", async () => {
    const applicationName = `loop-kill-${randomBytes(4).toString("hex")}`;
    const storePool = testPool(url, applicationName);
    const store = createPostgresStateStore({ pool: storePool, schema });
    await store.set("killed", "loop_state", "version 1");
    await store.set("killed", "loop_state", "version 2");
    // Another session holds the row, so the write is in the server, waiting, when it is killed.
    const blocker = await pool.connect();
    await blocker.query("BEGIN");
    await blocker.query(
      `SELECT 1 FROM ${tables.documents} WHERE terminal_id = 'killed' FOR UPDATE`,
    );
    const writing = store.set("killed", "loop_state", "version 3");
    let victim = 0;
    await eventually(async () => {
      [victim = 0] = await waitingBackends(applicationName);
      expect(victim).toBeGreaterThan(0);
    });
    const killed = await pool.query("SELECT pg_terminate_backend($1) AS killed", [victim]);
    expect(killed.rows).toEqual([{ killed: true }]);
    // The store tries again on a new connection, which waits for the row in turn.
    await eventually(async () => {
      const [retry = 0] = await waitingBackends(applicationName);
      expect(retry).toBeGreaterThan(0);
      expect(retry).not.toBe(victim);
    });
    expect(await storedDocument("killed")).toEqual({
      current: "version 2",
      backup: "version 1",
      revision: "2",
    });
    await blocker.query("ROLLBACK");
    blocker.release();
    await writing;
    expect(await storedDocument("killed")).toEqual({
      current: "version 3",
      backup: "version 2",
      revision: "3",
    });
    await store.close();
    await storePool.end();
  });

  it("a connection terminated inside the lock's transaction: no crash, the lock is taken on a new connection", async () => {
    const applicationName = `loop-kill-lock-${randomBytes(4).toString("hex")}`;
    const storePool = testPool(url, applicationName);
    const store = createPostgresStateStore({ pool: storePool, schema });
    await store.migrate();
    // Hold the lease key's advisory lock, so that the store's lock waits inside its transaction.
    const blocker = await pool.connect();
    const leaseKey = `loop.lease.${schema}.locked-while-killed`;
    await blocker.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [leaseKey]);
    const locking = store.lock("locked-while-killed");
    let victim = 0;
    await eventually(async () => {
      [victim = 0] = await waitingBackends(applicationName);
      expect(victim).toBeGreaterThan(0);
    });
    // node-postgres emits `error` on the checked-out client as its connection ends: without a
    // listener of the store's own, that would be an uncaught exception here.
    await pool.query("SELECT pg_terminate_backend($1)", [victim]);
    await eventually(async () => {
      const [retry = 0] = await waitingBackends(applicationName);
      expect(retry).not.toBe(victim);
      expect(retry).toBeGreaterThan(0);
    });
    await blocker.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [leaseKey]);
    blocker.release();
    const lock = await locking;
    expect(lock.takenOverFrom).toBeNull();
    await lock.release();
    await store.close();
    await storePool.end();
  });

  it("a retried write whose first attempt did commit is not applied twice: the backup survives", async () => {
    const store = createPostgresStateStore({ pool, schema });
    await store.set("twice", "loop_state", "version 1");
    await store.set("twice", "loop_state", "version 2");
    // The retry statement, run after an attempt that committed (its acknowledgement lost).
    await upsertDocument(pool, tables, "twice", "loop_state", null, Buffer.from("version 2"), true);
    const stored = await pool.query<{ backup_text: Buffer; revision: string }>(
      `SELECT backup_text, revision FROM ${tables.documents} WHERE terminal_id = 'twice'`,
    );
    expect(stored.rows[0]?.backup_text.toString()).toBe("version 1");
    expect(stored.rows[0]?.revision).toBe("2");
    // A retry of a write that had not committed applies it as usual.
    await upsertDocument(pool, tables, "twice", "loop_state", null, Buffer.from("version 3"), true);
    expect(await store.get("twice", "loop_state", "backup")).toBe("version 2");
    await store.close();
  });

  it("a holder cut off from the database loses its 2 s lease when it expires; back online, its writes are refused", async () => {
    const proxy = await startTcpProxy(Number(new URL(url).port));
    const lost: LeaseLostError[] = [];
    const cutOff = createPostgresStateStore({
      connectionString: proxy.url(url),
      schema,
      leaseMs: 2000,
      renewEveryMs: 400,
      reconnectWithinMs: 0,
      onLockLost: (error) => lost.push(error),
    });
    const other = createPostgresStateStore({ pool, schema, leaseMs: 5000 });
    const cutOffLock = await cutOff.lock("cut");
    await cutOff.set("cut", "loop_state", "by the first holder");

    proxy.cut();
    const refused = await other.lock("cut").catch((error: unknown) => error);
    expect(StateLockedError.isInstance(refused)).toBe(true);
    await eventually(async () => expect((await other.lease("cut"))?.expired).toBe(true));
    const otherLock = await other.lock("cut");
    expect(otherLock.takenOverFrom).toEqual(cutOffLock.holder);
    await other.set("cut", "loop_state", "by the second holder");

    proxy.restore();
    await eventually(() => expect(cutOffLock.signal.aborted).toBe(true));
    expect(lost).toHaveLength(1);
    expect(lost[0]?.heldBy).toEqual(otherLock.holder);
    await expect(cutOff.set("cut", "loop_state", "late")).rejects.toSatisfy(
      LeaseLostError.isInstance,
    );
    expect(await storedDocument("cut")).toMatchObject({
      current: "by the second holder",
      backup: "by the first holder",
    });
    await otherLock.release();
    await Promise.all([cutOff.close(), other.close(), proxy.close()]);
  });

  it("a holder killed with SIGKILL: refused while its lease lives, taken over when it expires, logged as lock_takeover", async () => {
    const bundle = await bundleWorker("faults-worker");
    const worker = startWorker(bundle, {
      mode: "hold",
      url,
      schema,
      terminalId: "killed-holder",
      leaseMs: 3000,
    });
    const { holder } = (await worker.fact("locked")) as { holder: Record<string, unknown> };
    worker.child.kill("SIGKILL");
    expect((await worker.exited).signal).toBe("SIGKILL");

    const store = createPostgresStateStore({ pool, schema });
    const refused = await store.lock("killed-holder").catch((error: unknown) => error);
    expect(StateLockedError.isInstance(refused)).toBe(true);
    expect((refused as StateLockedError).holder).toEqual(holder);
    await eventually(async () => expect((await store.lease("killed-holder"))?.expired).toBe(true));

    const logger = createPostgresLogger({ pool, schema, runId: "after-the-kill" });
    const clock = createTestClock();
    const result = await runLoop({
      plan: memoryPlan("- [ ] TASK-001 Recover\n", { path: "killed-holder-plan.md" }),
      executor: createScriptedExecutor(completesTask({ exitSignal: true }), { clock }),
      store,
      logger,
      clock,
      terminalId: "killed-holder",
    });
    expect(result.complete).toBe(true);
    await logger.flush();
    const { events } = await logger.readEvents({
      terminalId: "killed-holder",
      runId: "after-the-kill",
    });
    const takeover = events.find((event) => event.event === "lock_takeover") as
      | Extract<DecisionEvent, { event: "lock_takeover" }>
      | undefined;
    expect(takeover?.payload.previous_holder).toEqual({
      pid: holder.pid,
      host: holder.host,
      started_at: holder.startedAt,
    });
    expect(await store.lease("killed-holder")).toBeNull(); // released when the loop ended
    await Promise.all([store.close(), logger.close()]);
  }, 30_000);
});

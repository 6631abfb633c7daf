import { hostname } from "node:os";
import { StateLockedError, StateStoreError } from "@loop/core";
import { createTestClock } from "@loop/memory";
import { afterAll, afterEach, expect, it } from "vitest";
import { LeaseLostError } from "./lease-lost-error.js";
import { createPostgresStateStore, type PostgresStateStore } from "./postgres-state-store.js";
import { createManualClock } from "./testing/manual-clock.js";
import {
  describeWithPostgres,
  dropSchema,
  testPool,
  uniqueSchemaName,
} from "./testing/test-database.js";

// The store's own tests: they read the rows to prove what was stored (documents with their
// backup and revision, the lease row and its renewals), and check the fencing of a holder
// that lost its lease.

describeWithPostgres("PostgresStateStore: what the tables hold", (url) => {
  const pool = testPool(url);
  const schemas: string[] = [];
  const stores: PostgresStateStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const schema of schemas.splice(0)) await dropSchema(pool, schema);
  });
  afterAll(() => pool.end());

  function newSchema(): string {
    const schema = uniqueSchemaName("store");
    schemas.push(schema);
    return schema;
  }

  function newStore(
    options: Partial<Parameters<typeof createPostgresStateStore>[0]> = {},
    schema = newSchema(),
  ): PostgresStateStore {
    const store = createPostgresStateStore({ pool, schema, ...options } as Parameters<
      typeof createPostgresStateStore
    >[0]);
    stores.push(store);
    return store;
  }

  async function documentRow(schema: string, terminalId: string, key: string) {
    const result = await pool.query<{
      current_text: Buffer;
      backup_text: Buffer | null;
      revision: string;
    }>(
      `SELECT current_text, backup_text, revision FROM "${schema}".state_documents
        WHERE terminal_id = $1 AND key = $2`,
      [terminalId, key],
    );
    return result.rows;
  }

  async function leaseRow(schema: string, terminalId: string) {
    const result = await pool.query<{
      token: string;
      holder_host: string;
      holder_pid: number;
      holder_run_id: string | null;
      started_at: Date;
      lease_ms: number;
      renewed_at: Date;
    }>(
      `SELECT token, holder_host, holder_pid, holder_run_id, started_at, renewed_at,
              (extract(epoch FROM expires_at - renewed_at) * 1000)::integer AS lease_ms
         FROM "${schema}".state_leases WHERE terminal_id = $1`,
      [terminalId],
    );
    return result.rows;
  }

  it("keeps one row per document: the current text, the one it replaced, and a revision", async () => {
    const store = newStore();
    await store.set("term", "loop_state", "first");
    await store.set("term", "loop_state", "second");
    await store.set("term", "loop_state", "third\u0000with NUL");
    const rows = await documentRow(store.schema, "term", "loop_state");
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row?.current_text.equals(Buffer.from("third\u0000with NUL", "utf8"))).toBe(true);
    expect(row?.backup_text?.toString("utf8")).toBe("second");
    expect(row?.revision).toBe("3");
  });

  it("records the migrations it ran, once, in schema_migrations", async () => {
    const store = newStore();
    const first = await store.migrate();
    const second = await store.migrate();
    expect(first).toEqual({
      schema: store.schema,
      fromVersion: 0,
      toVersion: 3,
      applied: [1, 2, 3],
    });
    expect(second.applied).toEqual([1, 2, 3]); // the store migrates once and remembers the report
    const rows = await pool.query<{ version: number; description: string }>(
      `SELECT version, description FROM "${store.schema}".schema_migrations ORDER BY version`,
    );
    expect(rows.rows.map((row) => row.version)).toEqual([1, 2, 3]);
  });

  it("refuses an unusable text with a StateStoreError before touching the table", async () => {
    const store = newStore();
    const loneSurrogate = store.set("term", "loop_state", '{"a":"\uD800"}');
    await expect(loneSurrogate).rejects.toSatisfy(StateStoreError.isInstance);
    await expect(loneSurrogate).rejects.toThrow(/lone surrogate \(U\+D800\) at index 6/);
    const notText = store.set("term", "loop_state", 42 as unknown as string);
    await expect(notText).rejects.toThrow(/must be text \(a string\), got number/);
    const badKey = store.set("term", "loop.state", "x");
    await expect(badKey).rejects.toThrow(/Unsafe state document key "loop.state"/);
    await store.migrate();
    expect(await documentRow(store.schema, "term", "loop_state")).toEqual([]);
  });

  it("writes a lease row naming the holder, with the lease's length, and deletes it on release", async () => {
    const store = newStore({ leaseMs: 4000, runId: "run-42" });
    const lock = await store.lock("term");
    const [row] = await leaseRow(store.schema, "term");
    expect(row?.holder_host).toBe(hostname());
    expect(row?.holder_pid).toBe(process.pid);
    expect(row?.holder_run_id).toBe("run-42");
    expect(row?.started_at.toISOString()).toBe(lock.holder.startedAt);
    expect(row?.lease_ms).toBe(4000);
    expect(lock.holder).toEqual({
      pid: process.pid,
      host: hostname(),
      startedAt: lock.holder.startedAt,
      runId: "run-42",
    });
    const report = await store.lease("term");
    expect(report?.expired).toBe(false);
    expect(Date.parse(report?.expiresAt ?? "") - Date.parse(lock.holder.startedAt)).toBe(4000);
    await lock.release();
    expect(await leaseRow(store.schema, "term")).toEqual([]);
    expect(await store.lease("term")).toBeNull();
  });

  it("renews the lease at each tick of its clock, keeping the holder and start", async () => {
    const clock = createManualClock();
    const store = newStore({ leaseMs: 60_000, clock });
    const lock = await store.lock("term");
    // Set the lease a minute back, as if the last renewal were that old.
    await pool.query(
      `UPDATE "${store.schema}".state_leases
          SET renewed_at = renewed_at - interval '1 minute', expires_at = expires_at - interval '1 minute'`,
    );
    const [before] = await leaseRow(store.schema, "term");
    await clock.sleepsAsked(1);
    clock.wake();
    await clock.sleepsAsked(2); // the renewal ran and the loop sleeps again
    const [after] = await leaseRow(store.schema, "term");
    expect(after?.token).toBe(before?.token);
    expect(after?.started_at.toISOString()).toBe(lock.holder.startedAt);
    expect(after?.renewed_at.getTime()).toBeGreaterThan(before?.renewed_at.getTime() ?? 0);
    expect(after?.lease_ms).toBe(60_000);
    await lock.release();
    clock.wake();
    expect(await leaseRow(store.schema, "term")).toEqual([]);
  });

  it("fences a holder whose expired lease was taken over: its writes are refused, the new holder's kept", async () => {
    const schema = newSchema();
    const lost: LeaseLostError[] = [];
    const first = newStore(
      { onLockLost: (error) => lost.push(error), clock: createManualClock() },
      schema,
    );
    const second = newStore({ clock: createManualClock() }, schema);
    const firstLock = await first.lock("term");
    await first.set("term", "loop_state", "written by the first holder");
    // The first holder could not renew (say its network was cut) and its lease ran out.
    await pool.query(
      `UPDATE "${schema}".state_leases SET expires_at = now() - interval '1 second'`,
    );
    const secondLock = await second.lock("term");
    expect(secondLock.takenOverFrom).toEqual(firstLock.holder);
    await second.set("term", "loop_state", "written by the second holder");

    const refused = first.set("term", "loop_state", "a late write of the first holder");
    await expect(refused).rejects.toSatisfy(LeaseLostError.isInstance);
    const error = (await refused.catch((reason: unknown) => reason)) as LeaseLostError;
    expect(error.code).toBe("STATE_LEASE_LOST");
    expect(error.heldBy).toEqual(secondLock.holder);
    expect(error.message).toContain(`lost its lease on terminal "term"`);
    await expect(first.delete("term", "loop_state")).rejects.toSatisfy(LeaseLostError.isInstance);
    expect(firstLock.signal.aborted).toBe(true);
    expect(firstLock.signal.reason).toBe(error);
    expect(lost).toEqual([error]);

    const [row] = await documentRow(schema, "term", "loop_state");
    expect(row?.current_text.toString("utf8")).toBe("written by the second holder");
    expect(row?.backup_text?.toString("utf8")).toBe("written by the first holder");
    // Releasing the lost lock leaves the new holder's lease alone.
    await firstLock.release();
    expect((await leaseRow(schema, "term"))[0]?.holder_pid).toBe(process.pid);
    await expect(first.lock("term")).rejects.toSatisfy(StateLockedError.isInstance);
    await secondLock.release();
  });

  it("finds a lost lease at its next renewal: onLockLost, the lock's signal, and no more renewals", async () => {
    const clock = createManualClock();
    const lost: LeaseLostError[] = [];
    const store = newStore({ clock, onLockLost: (error) => lost.push(error) });
    const lock = await store.lock("term");
    await pool.query(
      `UPDATE "${store.schema}".state_leases
          SET token = gen_random_uuid(), holder_host = 'other-machine', holder_pid = 4242`,
    );
    await clock.sleepsAsked(1);
    clock.wake();
    await new Promise<void>((resolve) => lock.signal.addEventListener("abort", () => resolve()));
    expect(lost).toHaveLength(1);
    expect(lost[0]?.heldBy).toMatchObject({ host: "other-machine", pid: 4242 });
    expect(clock.asked).toBe(1); // it stopped renewing
    await expect(store.set("term", "loop_state", "late")).rejects.toSatisfy(
      LeaseLostError.isInstance,
    );
    await lock.release(); // deletes only its own lease: the other machine's stays
    expect((await leaseRow(store.schema, "term"))[0]?.holder_host).toBe("other-machine");
  });

  it("lists the terminals with a document or a lease", async () => {
    const store = newStore();
    await store.set("b-term", "loop_state", "x");
    await store.set("a-term", "loop_metrics", "y");
    const lock = await store.lock("c-term");
    expect(await store.terminals()).toEqual(["a-term", "b-term", "c-term"]);
    await lock.release();
  });

  it("tries a refused connection again within reconnectWithinMs, then says which schema and what failed", async () => {
    const clock = createTestClock();
    const store = createPostgresStateStore({
      connectionString: "postgres://loop@127.0.0.1:1/postgres",
      schema: "unreachable",
      reconnectWithinMs: 300,
      clock,
    });
    const error = await store.get("term", "loop_state").catch((reason: unknown) => reason);
    expect(StateStoreError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^Could not read the current "loop_state" of terminal "term" in PostgreSQL schema "unreachable": .*ECONNREFUSED/,
    );
    expect(clock.sleeps).toEqual([50, 100]); // the next pause, 200 ms, would pass 300
    await store.close();
    await expect(store.get("term", "loop_state")).rejects.toThrow(/the store was closed/);
  });

  it("releases its leases on close, and never ends a pool it was handed", async () => {
    const store = newStore();
    await store.set("term", "loop_state", "x");
    await store.lock("term");
    await store.close();
    expect(await leaseRow(store.schema, "term")).toEqual([]);
    await store.close();
    expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it("checks its options before connecting", () => {
    const create = (options: unknown) => () =>
      createPostgresStateStore(options as Parameters<typeof createPostgresStateStore>[0]);
    expect(create({})).toThrow(/Missing required option `connectionString`/);
    expect(create({ connectionString: url, pool })).toThrow(/not both/);
    expect(create({ pool, schema: "Bad-Name" })).toThrow(/option `schema` must be 1 to 63/);
    expect(create({ pool, leaseMs: 0 })).toThrow(/option `leaseMs` must be a number/);
    expect(create({ pool, leaseMs: 1000, renewEveryMs: 1000 })).toThrow(
      /`renewEveryMs` \(1000\) must be shorter than `leaseMs` \(1000\)/,
    );
    expect(create({ pool, onLockLost: "yes" })).toThrow(/`onLockLost` must be a function/);
  });
});

import { afterAll, beforeAll, expect, it } from "vitest";
import { migratePostgresSchema } from "./migrate-postgres-schema.js";
import { bundleWorker } from "./testing/bundle-worker.js";
import {
  describeWithPostgres,
  dropSchema,
  testPool,
  uniqueSchemaName,
} from "./testing/test-database.js";
import { startWorker, type WorkerProcess } from "./testing/worker-process.js";

// Many processes, each with its own pool (a "machine"), on one database: locked increments
// lose nothing, unlocked writes are each applied whole, and of two racing for a lock one wins.

const processes = 8;

/** Waits until every worker is connected and migrated, then lets them all go at once. */
async function startTogether(workers: readonly WorkerProcess[]): Promise<void> {
  await Promise.all(workers.map((worker) => worker.fact("ready")));
  for (const worker of workers) worker.send("go");
}

describeWithPostgres("PostgresStateStore across processes", (url) => {
  const pool = testPool(url);
  const schema = uniqueSchemaName("multiprocess");
  let bundle = "";
  beforeAll(async () => {
    bundle = await bundleWorker("multiprocess-worker");
    await migratePostgresSchema({ pool, schema });
  }, 60_000);
  afterAll(async () => {
    await dropSchema(pool, schema);
    await pool.end();
  });

  it(`${processes} processes × 25 increments under the lock: the counter is exactly ${processes * 25}`, async () => {
    const workers = Array.from({ length: processes }, () =>
      startWorker(bundle, { mode: "counter", url, schema, terminalId: "counted", count: 25 }),
    );
    await startTogether(workers);
    const results = await Promise.all(workers.map((worker) => worker.fact("done")));
    expect(results).toHaveLength(processes);
    const row = await pool.query<{ current_text: Buffer; revision: string }>(
      `SELECT current_text, revision FROM "${schema}".state_documents
        WHERE terminal_id = 'counted' AND key = 'counter'`,
    );
    const [stored] = row.rows;
    expect(JSON.parse(stored?.current_text.toString("utf8") ?? "{}").value).toBe(processes * 25);
    expect(stored?.revision).toBe(String(processes * 25));
    // Contention was real: the workers were refused the lock while others held it.
    const refusals = results.reduce((sum, fact) => sum + Number(fact.refusals), 0);
    expect(refusals).toBeGreaterThan(0);
    const leases = await pool.query(`SELECT * FROM "${schema}".state_leases`);
    expect(leases.rowCount).toBe(0);
    await Promise.all(workers.map((worker) => worker.exited));
  }, 60_000);

  it(`${processes} processes × 40 unlocked sets to one document: every set applied whole, each backup the version before`, async () => {
    const workers = Array.from({ length: processes }, (_, writer) =>
      startWorker(bundle, { mode: "writer", url, schema, terminalId: "shared", count: 40, writer }),
    );
    await startTogether(workers);
    await Promise.all(workers.map((worker) => worker.fact("done")));
    const row = await pool.query<{
      current_text: Buffer;
      backup_text: Buffer;
      revision: string;
    }>(
      `SELECT current_text, backup_text, revision FROM "${schema}".state_documents
        WHERE terminal_id = 'shared'`,
    );
    const [stored] = row.rows;
    // Every one of the 320 upserts was applied: none lost to another.
    expect(stored?.revision).toBe(String(processes * 40));
    const written = new Set(
      Array.from({ length: processes }, (_, writer) =>
        Array.from(
          { length: 40 },
          (_, index) => `writer ${writer} write ${index} ${"x".repeat(2000)}`,
        ),
      ).flat(),
    );
    const current = stored?.current_text.toString("utf8") ?? "";
    const backup = stored?.backup_text.toString("utf8") ?? "";
    expect(written.has(current), "the current text is one written whole").toBe(true);
    expect(written.has(backup), "the backup is one written whole").toBe(true);
    expect(backup).not.toBe(current);
    await Promise.all(workers.map((worker) => worker.exited));
  }, 60_000);

  it("two machines race for one lock 10 times: each time exactly one wins, the other is told who", async () => {
    for (let round = 0; round < 10; round += 1) {
      const terminalId = `race-${round}`;
      const racers = [0, 1].map(() =>
        startWorker(bundle, { mode: "race", url, schema, terminalId }),
      );
      await startTogether(racers);
      const outcomes = await Promise.all(
        racers.map((racer) => Promise.race([racer.fact("acquired"), racer.fact("error")])),
      );
      const winners = outcomes.filter((outcome) => outcome.acquired === true);
      const losers = outcomes.filter((outcome) => outcome.acquired === false);
      expect(winners, JSON.stringify(outcomes)).toHaveLength(1);
      expect(losers).toHaveLength(1);
      expect(losers[0]?.lockedBy).toEqual(winners[0]?.holder);
      for (const racer of racers) racer.send("release");
      await Promise.all(racers.map((racer) => racer.exited));
    }
    const leases = await pool.query(`SELECT * FROM "${schema}".state_leases`);
    expect(leases.rowCount).toBe(0);
  }, 60_000);
});

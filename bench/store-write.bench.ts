import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { StateStore } from "@loop/core";
import { createFileStateStore } from "@loop/fs";
import { createPostgresStateStore } from "@loop/postgres";
import { measure, report } from "./measure.js";

/** The part of `pg` the bench uses to drop its schema. */
interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}

// `pg` is a dependency of @loop/postgres, not of the workspace root: load it from there.
const pg = createRequire(new URL("../packages/postgres/package.json", import.meta.url))("pg") as {
  Client: new (options: { connectionString: string }) => PgClient;
};

// State store writes, file vs PostgreSQL: the latency of one `set` of a loop_state-sized
// document (8 KB), and the throughput of 8 writers on 8 terminals at once. PostgreSQL runs when
// LOOP_TEST_POSTGRES_URL names a server (eval "$(scripts/postgres-server.sh start)"); that
// throwaway server runs with fsync off, so its figures leave out the disk flush the file
// store's durable writes pay.

const documentText = JSON.stringify({ padding: "x".repeat(8 * 1024 - 20) });
const writers = 8;
const writesPerWriter = 100;

/** Writes per second of `writers` concurrent writers, each on its own terminal. */
async function throughput(store: StateStore): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      for (let index = 0; index < writesPerWriter; index += 1) {
        await store.set(`writer-${writer}`, "loop_state", documentText);
      }
    }),
  );
  return (writers * writesPerWriter) / ((performance.now() - started) / 1000);
}

const rows = [];
const rates: string[] = [];

const folder = await mkdtemp(join(tmpdir(), "loop-bench-store-"));
const fileStore = createFileStateStore({ root: folder });
rows.push(
  await measure("file: set 8 KB (durable)", () =>
    fileStore.set("bench", "loop_state", documentText),
  ),
);
rows.push(
  await measure("file: set 8 KB (durable: false)", () =>
    fileStore.set("bench", "loop_metrics", documentText, { durable: false }),
  ),
);
rates.push(`file: ${(await throughput(fileStore)).toFixed(0)} writes/s`);
await rm(folder, { recursive: true, force: true });

const url = process.env.LOOP_TEST_POSTGRES_URL;
if (url === undefined || url === "") {
  rates.push("PostgreSQL: skipped (set LOOP_TEST_POSTGRES_URL: scripts/postgres-server.sh start)");
} else {
  const schema = `bench_${randomBytes(4).toString("hex")}`;
  const store = createPostgresStateStore({ connectionString: url, schema });
  await store.migrate();
  rows.push(
    await measure("PostgreSQL: set 8 KB", () => store.set("bench", "loop_state", documentText)),
  );
  rows.push(await measure("PostgreSQL: get 8 KB", () => store.get("bench", "loop_state")));
  rates.push(`PostgreSQL: ${(await throughput(store)).toFixed(0)} writes/s`);
  await store.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA "${schema}" CASCADE`);
  await client.end();
}

report("State store writes (one set of an 8 KB document)", rows);
console.log(
  `  throughput, ${writers} writers × ${writesPerWriter} sets on their own terminals: ${rates.join("; ")}`,
);

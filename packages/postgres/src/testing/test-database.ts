import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, it } from "vitest";

/**
 * The test server's URL, from `LOOP_TEST_POSTGRES_URL` (`.ci/run` and
 * `eval "$(scripts/postgres-server.sh start)"` set it).
 */
export const testPostgresUrl: string | undefined = process.env.LOOP_TEST_POSTGRES_URL || undefined;

/** How a developer gets a server, said by every skipped test file. */
export const howToStart =
  'start a throwaway server with: eval "$(scripts/postgres-server.sh start)" (then run the tests in that shell)';

/**
 * Registers `register` as a describe block when a test server is known. Without one it is
 * skipped, saying how to start one, except in CI (`CI` set), where the missing server fails
 * the file: CI must never pass by skipping these tests.
 */
export function describeWithPostgres(title: string, register: (url: string) => void): void {
  const url = testPostgresUrl;
  if (url !== undefined) {
    describe(title, () => register(url));
  } else if (process.env.CI) {
    describe(title, () => {
      it("needs LOOP_TEST_POSTGRES_URL (CI must run these against a real server)", () => {
        throw new Error(`LOOP_TEST_POSTGRES_URL is not set in CI: ${howToStart}`);
      });
    });
  } else {
    describe.skip(`${title} (skipped: LOOP_TEST_POSTGRES_URL is not set; ${howToStart})`, () => {
      it("needs a PostgreSQL server", () => {});
    });
  }
}

/**
 * A schema name no other test run uses: `t_<label>_<random>`, so test files (and runs) never
 * see each other's tables.
 */
export function uniqueSchemaName(label: string): string {
  const cleaned = label
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "_")
    .slice(0, 30);
  return `t_${cleaned}_${randomBytes(6).toString("hex")}`;
}

/** A pool on the test server with an `error` listener (idle connections may be terminated). */
export function testPool(url: string, applicationName = "loop-postgres-tests"): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    application_name: applicationName,
    max: 10,
    connectionTimeoutMillis: 10_000,
  });
  pool.on("error", () => {
    // An idle connection terminated by a test; the pool replaces it.
  });
  return pool;
}

/** Drops a test schema and everything in it. */
export async function dropSchema(pool: pg.Pool, schema: string): Promise<void> {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

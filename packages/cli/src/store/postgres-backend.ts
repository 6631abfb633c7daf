import { hostname } from "node:os";
import { LoopError } from "@loop/core";
import { createJsonlLogger, isProcessAlive } from "@loop/fs";
import {
  createPostgresLogger,
  createPostgresSharedLimits,
  createPostgresStateStore,
  type PostgresLogger,
  type PostgresStateStore,
} from "@loop/postgres";
import pg from "pg";
import { errorMessage } from "../error-message.js";
import type { ProjectBackend } from "./project-backend.js";
import { redactUrl } from "./redact-url.js";
import { teeLogger } from "./tee-logger.js";

/** How often a monitor re-reads a database: there is no file to watch. */
const DATABASE_REFRESH_MS = 2000;

/** Milliseconds a command waits for a connection before its statement fails. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The connection URL and the schema it names: `?schema=<name>` chooses the schema of the
 * loop's tables (default `loop`) and is taken out of the URL node-postgres sees.
 */
export function splitSchema(url: string): {
  readonly connectionString: string;
  readonly schema: string | undefined;
} {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new LoopError({
      message: `the store ${JSON.stringify(redactUrl(url))} is not a valid URL: use postgres://user@host:5432/database (and ?schema=<name> for a schema other than loop).`,
    });
  }
  const schema = parsed.searchParams.get("schema") ?? undefined;
  if (schema === undefined) return { connectionString: url, schema };
  parsed.searchParams.delete("schema");
  return { connectionString: parsed.toString(), schema };
}

/**
 * The state, leases and decision events in PostgreSQL (`@loop/postgres`, schema `loop`), for
 * loops a fleet shares: `loop status --all` sees every one. The pool lets the process exit
 * when it is idle, so a command that ends never waits for it. Loaded only when a command is
 * given a `postgres://` store, so the file commands never load node-postgres.
 *
 * @param url - the `postgres://` URL, `?schema=<name>` for a schema other than `loop`.
 * @throws {LoopError} for a URL that is not one, or a schema name that is not valid.
 */
export function postgresBackend(url: string): ProjectBackend {
  const { connectionString, schema } = splitSchema(url);
  const pool = new pg.Pool({
    connectionString,
    allowExitOnIdle: true,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: "loop",
  });
  pool.on("error", () => {
    // An idle connection was dropped (a restart): the next statement connects again.
  });
  let store: PostgresStateStore;
  let events: PostgresLogger;
  try {
    store = createPostgresStateStore({ pool, schema });
    events = createPostgresLogger({ pool, schema });
  } catch (error) {
    void pool.end();
    throw new LoopError({ message: `the store's ?schema=: ${errorMessage(error)}` });
  }
  let closed: Promise<void> | null = null;
  return {
    kind: "postgres",
    store,
    root: null,
    where: `${redactUrl(connectionString)} (schema ${store.schema})`,
    refreshMs: DATABASE_REFRESH_MS,
    async lockHolder(terminalId) {
      const lease = await store.lease(terminalId);
      if (lease === null) return null;
      const { holder } = lease;
      const here = holder.host === hostname();
      return { holder, alive: lease.expired ? false : here ? isProcessAlive(holder.pid) : true };
    },
    async lastEvents(terminalId, count) {
      if (count <= 0) return [];
      return [...(await events.readEvents({ terminalId, limit: count, latest: true })).events];
    },
    openLogger({ decisionLog, onError }) {
      const database = createPostgresLogger({
        pool,
        schema,
        onError: (error) =>
          onError(
            new Error(`decision events are not written to the database: ${errorMessage(error)}`),
          ),
      });
      return teeLogger(createJsonlLogger({ path: decisionLog }), database);
    },
    async openSharedLimits({ name, maxCallsPerHour, maxCostUsd }) {
      return createPostgresSharedLimits({ pool, schema, name, maxCallsPerHour, maxCostUsd });
    },
    close() {
      closed ??= (async () => {
        await Promise.allSettled([store.close(), events.close()]);
        await pool.end();
      })();
      return closed;
    },
  };
}

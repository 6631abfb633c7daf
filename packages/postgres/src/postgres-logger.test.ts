import { type DecisionEvent, parseDecisionEvent } from "@loop/core";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { PostgresLogError } from "./postgres-log-error.js";
import { createPostgresLogger, type PostgresLogger } from "./postgres-logger.js";
import { createManualClock } from "./testing/manual-clock.js";
import { startTcpProxy, type TcpProxy } from "./testing/tcp-proxy.js";
import {
  describeWithPostgres,
  dropSchema,
  testPool,
  uniqueSchemaName,
} from "./testing/test-database.js";

/** A valid `error` event numbered `index`, at a time one second per index after noon. */
function errorEvent(index: number, terminalId = "term", message = `event ${index}`): DecisionEvent {
  return {
    terminal_id: terminalId,
    event: "error",
    payload: {
      error_type: "TestError",
      error_message: message,
      iteration: index,
      current_task_id: null,
    },
    timestamp: new Date(Date.UTC(2026, 2, 14, 12, 0, index)).toISOString(),
  };
}

describeWithPostgres("PostgresLogger on a real server", (url) => {
  const pool = testPool(url);
  const schemas: string[] = [];
  const loggers: PostgresLogger[] = [];
  let proxy: TcpProxy;
  beforeAll(async () => {
    proxy = await startTcpProxy(Number(new URL(url).port));
  });
  afterEach(async () => {
    proxy.restore();
    for (const logger of loggers.splice(0)) await logger.close().catch(() => undefined);
    for (const schema of schemas.splice(0)) await dropSchema(pool, schema);
  });
  afterAll(async () => {
    await proxy.close();
    await pool.end();
  });

  function newLogger(
    options: Partial<Parameters<typeof createPostgresLogger>[0]> = {},
  ): PostgresLogger {
    const schema = uniqueSchemaName("logger");
    schemas.push(schema);
    const logger = createPostgresLogger({ pool, schema, ...options } as Parameters<
      typeof createPostgresLogger
    >[0]);
    loggers.push(logger);
    return logger;
  }

  /** A logger whose connection goes through the proxy, retrying on a manual clock. */
  function loggerBehindProxy(options: Partial<Parameters<typeof createPostgresLogger>[0]> = {}) {
    const clock = createManualClock();
    const errors: PostgresLogError[] = [];
    const schema = uniqueSchemaName("logger");
    schemas.push(schema);
    const logger = createPostgresLogger({
      connectionString: proxy.url(url),
      schema,
      clock,
      onError: (error: PostgresLogError) => errors.push(error),
      ...options,
    } as Parameters<typeof createPostgresLogger>[0]);
    loggers.push(logger);
    return { logger, clock, errors };
  }

  async function rows(schema: string) {
    const result = await pool.query<{
      terminal_id: string;
      run_id: string | null;
      event: string;
      timestamp: string;
      occurred_at: Date;
      payload: Record<string, unknown>;
    }>(
      `SELECT terminal_id, run_id, event, timestamp, occurred_at, payload
         FROM "${schema}".decision_events ORDER BY id`,
    );
    return result.rows;
  }

  it("the test events are valid decision events", () => {
    expect(parseDecisionEvent(JSON.stringify(errorEvent(1))).ok).toBe(true);
  });

  it("writes each event as a row: terminal, run, name, its own timestamp, the payload as JSONB", async () => {
    const logger = newLogger({ runId: "run-1" });
    logger.log(errorEvent(1));
    logger.log(errorEvent(2, "other"));
    await logger.flush();
    const stored = await rows(logger.schema);
    expect(stored).toEqual([
      {
        terminal_id: "term",
        run_id: "run-1",
        event: "error",
        timestamp: "2026-03-14T12:00:01.000Z",
        occurred_at: new Date("2026-03-14T12:00:01.000Z"),
        payload: errorEvent(1).payload,
      },
      expect.objectContaining({ terminal_id: "other", timestamp: "2026-03-14T12:00:02.000Z" }),
    ]);
    const typed = await pool.query(
      `SELECT payload->>'error_message' AS message FROM "${logger.schema}".decision_events
        WHERE payload @> '{"iteration": 2}'`,
    );
    expect(typed.rows).toEqual([{ message: "event 2" }]);
  });

  it("reads the same DecisionEvents back, by terminal, run, time and count", async () => {
    const first = newLogger({ runId: "run-a" });
    const second = createPostgresLogger({ pool, schema: first.schema, runId: "run-b" });
    loggers.push(second);
    for (const index of [1, 2, 3]) first.log(errorEvent(index));
    for (const index of [4, 5]) second.log(errorEvent(index));
    first.log(errorEvent(6, "elsewhere"));
    await Promise.all([first.flush(), second.flush()]);

    const all = await first.readEvents({ terminalId: "term" });
    expect(all).toEqual({ events: [1, 2, 3, 4, 5].map((index) => errorEvent(index)), skipped: 0 });
    const runB = await first.readEvents({ terminalId: "term", runId: "run-b" });
    expect(runB.events).toEqual([errorEvent(4), errorEvent(5)]);
    const since = await first.readEvents({ terminalId: "term", since: "2026-03-14T12:00:03Z" });
    expect(since.events).toEqual([3, 4, 5].map((index) => errorEvent(index)));
    const limited = await first.readEvents({ terminalId: "term", limit: 2 });
    expect(limited.events).toEqual([errorEvent(1), errorEvent(2)]);
    const latest = await first.readEvents({ terminalId: "term", limit: 2, latest: true });
    expect(latest.events).toEqual([errorEvent(4), errorEvent(5)]);
    await expect(first.readEvents({ terminalId: "term", limit: 0 })).rejects.toThrow(
      /`limit` must be a whole number from 1 to 100000/,
    );
    await expect(first.readEvents({ terminalId: "../x" })).rejects.toThrow(/Unsafe terminal id/);
  });

  it("skips and counts rows that are not valid decision events", async () => {
    const logger = newLogger();
    logger.log(errorEvent(1));
    await logger.flush();
    await pool.query(
      `INSERT INTO "${logger.schema}".decision_events
         (terminal_id, event, timestamp, occurred_at, payload)
       VALUES ('term', 'no_such_event', '2026-03-14T12:00:02.000Z', now(), '{}'),
              ('term', 'error', '2026-03-14T12:00:03.000Z', now(), '{"iteration": "three"}')`,
    );
    expect(await logger.readEvents({ terminalId: "term" })).toEqual({
      events: [errorEvent(1)],
      skipped: 2,
    });
  });

  it("stores what jsonb cannot hold (NUL, a lone surrogate) as U+FFFD, keeping the rest", async () => {
    const logger = newLogger();
    logger.log(errorEvent(1, "term", "agent said a\u0000b and \uD800 then 日本語 🚀"));
    await logger.flush();
    const { events } = await logger.readEvents({ terminalId: "term" });
    expect(events).toEqual([
      errorEvent(1, "term", "agent said a\uFFFDb and \uFFFD then 日本語 🚀"),
    ]);
  });

  it("rides out an outage: log returns at once, the outage is reported once, the events are written when the database is back", async () => {
    const { logger, clock, errors } = loggerBehindProxy();
    logger.log(errorEvent(1));
    await logger.flush();
    proxy.cut();
    for (const index of [2, 3, 4]) expect(logger.log(errorEvent(index))).toBeUndefined();
    const failed = await logger.flush().catch((reason: unknown) => reason);
    expect(PostgresLogError.isInstance(failed)).toBe(true);
    expect((failed as PostgresLogError).buffered).toBe(3);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.code).toBe("POSTGRES_LOG_ERROR");
    expect(logger.failing).toBe(true);

    logger.log(errorEvent(5));
    clock.wake(); // a retry during the outage fails again: not reported again
    await logger.flush().catch(() => undefined);
    expect(errors).toHaveLength(1);
    expect(logger.buffered).toBe(4);

    proxy.restore();
    clock.wake(); // the next retry finds the database back and writes the buffer
    await vi.waitFor(() => expect(logger.buffered).toBe(0), { timeout: 5000, interval: 10 });
    expect(logger.failing).toBe(false);
    expect(logger.buffered).toBe(0);
    expect((await logger.readEvents({ terminalId: "term" })).events).toEqual(
      [1, 2, 3, 4, 5].map((index) => errorEvent(index)),
    );

    proxy.cut(); // a second outage is reported again
    logger.log(errorEvent(6));
    await logger.flush().catch(() => undefined);
    expect(errors).toHaveLength(2);
  });

  it("keeps at most bufferLimit events during an outage, dropping and counting the oldest", async () => {
    const { logger, errors } = loggerBehindProxy({ bufferLimit: 5 });
    await logger.migrate();
    proxy.cut();
    for (let index = 1; index <= 12; index += 1) logger.log(errorEvent(index));
    await logger.flush().catch(() => undefined);
    expect(logger.buffered).toBe(5);
    expect(logger.dropped).toBe(7);
    expect(errors).toHaveLength(1);
    proxy.restore();
    await logger.flush();
    expect((await logger.readEvents({ terminalId: "term" })).events).toEqual(
      [8, 9, 10, 11, 12].map((index) => errorEvent(index)),
    );
  });

  it("checks its options before connecting", () => {
    const create = (options: unknown) => () =>
      createPostgresLogger(options as Parameters<typeof createPostgresLogger>[0]);
    expect(create({ pool, bufferLimit: 0 })).toThrow(/`bufferLimit` must be a whole number/);
    expect(create({ pool, retryEveryMs: -1 })).toThrow(/`retryEveryMs` must be a number/);
    expect(create({ pool, runId: "" })).toThrow(/`runId` must be a non-empty string/);
    expect(create({ pool, onError: 1 })).toThrow(/`onError` must be a function/);
    expect(create({ connectionString: "" })).toThrow(/`connectionString` must be a non-empty/);
  });
});

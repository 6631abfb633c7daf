import { describe, expect, it } from "vitest";
import { bestEffort } from "./best-effort-logger.js";
import { createDecisionEvent } from "./create-decision-event.js";
import type { DecisionEvent } from "./decision-event.js";
import type { Logger } from "./logger.js";

const event = createDecisionEvent(
  "term_001",
  "iteration_start",
  { iteration: 1, current_task_id: "TASK-001", total_tasks: 5 },
  "2026-03-14T10:00:00.000Z",
);

/** Collects what `onError` receives. */
function reports() {
  const errors: unknown[] = [];
  return { errors, onError: (error: unknown) => errors.push(error) };
}

/** A promise that settles with the rest of the microtasks already queued. */
const tick = () => new Promise<void>((resolve) => queueMicrotask(resolve));

describe("bestEffort", () => {
  it("passes events through to a working logger", async () => {
    const seen: DecisionEvent[] = [];
    const { errors, onError } = reports();
    const logger = bestEffort({ log: (logged) => void seen.push(logged) }, { onError });
    logger.log(event);
    await logger.flush();
    expect(seen).toEqual([event]);
    expect(errors).toEqual([]);
    expect(logger.failureCount).toBe(0);
  });

  it("swallows a throwing logger, reporting the first failure once and counting the rest", async () => {
    const { errors, onError } = reports();
    let calls = 0;
    const logger = bestEffort(
      {
        log: () => {
          calls += 1;
          throw new Error(`disk full ${calls}`);
        },
      },
      { onError },
    );
    expect(() => logger.log(event)).not.toThrow();
    logger.log(event);
    logger.log(event);
    expect(calls).toBe(3);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe("disk full 1");
    expect(logger.failureCount).toBe(3);
    await expect(logger.flush()).resolves.toBeUndefined();
  });

  it("swallows a rejecting logger without waiting for it", async () => {
    const { errors, onError } = reports();
    const failure = new Error("EACCES");
    const logger = bestEffort({ log: () => Promise.reject(failure) }, { onError });
    const returned = logger.log(event);
    expect(returned).toBeUndefined();
    logger.log(event);
    await logger.flush();
    expect(errors).toEqual([failure]);
    expect(logger.failureCount).toBe(2);
  });

  it("does not block on a slow logger, and flush waits for it", async () => {
    const { onError } = reports();
    let finish = () => {};
    let written = false;
    const slow: Logger = {
      log: () =>
        new Promise<void>((resolve) => {
          finish = () => {
            written = true;
            resolve();
          };
        }),
    };
    const logger = bestEffort(slow, { onError });
    logger.log(event);
    let flushed = false;
    const flushing = logger.flush().then(() => {
      flushed = true;
    });
    await tick();
    await tick();
    expect(flushed).toBe(false);
    finish();
    await flushing;
    expect(written).toBe(true);
  });

  it("stops waiting for a logger that never settles when the flush signal fires", async () => {
    const { errors, onError } = reports();
    const stuck: Logger = {
      log: () => new Promise<void>(() => {}),
      flush: () => new Promise<void>(() => {}),
    };
    const logger = bestEffort(stuck, { onError });
    logger.log(event);
    const controller = new AbortController();
    let flushed = false;
    const flushing = logger.flush({ signal: controller.signal }).then(() => {
      flushed = true;
    });
    await tick();
    expect(flushed).toBe(false);
    controller.abort();
    await flushing;
    expect(flushed).toBe(true);
    expect(errors).toEqual([]);
  });

  it("returns at once from flush with an already aborted signal", async () => {
    const { onError } = reports();
    const logger = bestEffort({ log: () => new Promise<void>(() => {}) }, { onError });
    logger.log(event);
    await expect(logger.flush({ signal: AbortSignal.abort() })).resolves.toBeUndefined();
  });

  it("calls the wrapped flush and swallows its failures, sync or async", async () => {
    const { errors, onError } = reports();
    let flushes = 0;
    const logger = bestEffort(
      {
        log: () => {},
        flush: () => {
          flushes += 1;
          if (flushes === 1) throw new Error("sync flush failure");
          return Promise.reject(new Error("async flush failure"));
        },
      },
      { onError },
    );
    await expect(logger.flush()).resolves.toBeUndefined();
    await expect(logger.flush()).resolves.toBeUndefined();
    expect(flushes).toBe(2);
    expect((errors as Error[]).map((error) => error.message)).toEqual(["sync flush failure"]);
    expect(logger.failureCount).toBe(2);
  });

  it("survives an onError that throws", async () => {
    const logger = bestEffort(
      {
        log: () => {
          throw new Error("log failed");
        },
      },
      {
        onError: () => {
          throw new Error("reporting failed too");
        },
      },
    );
    expect(() => logger.log(event)).not.toThrow();
    expect(() => logger.log(event)).not.toThrow();
    expect(logger.failureCount).toBe(2);
    await expect(logger.flush()).resolves.toBeUndefined();
  });

  it("survives an onError that throws on an async failure, with no unhandled rejection", async () => {
    const logger = bestEffort(
      { log: () => Promise.reject(new Error("later")) },
      {
        onError: () => {
          throw new Error("reporting failed");
        },
      },
    );
    logger.log(event);
    await logger.flush();
    expect(logger.failureCount).toBe(1);
  });

  it("survives a logger that returns a thenable whose then throws", async () => {
    const { errors, onError } = reports();
    // biome-ignore lint/suspicious/noThenProperty: the test needs a hostile thenable
    const hostile = Object.defineProperty({}, "then", {
      value: () => {
        throw new Error("then exploded");
      },
    });
    const logger = bestEffort({ log: () => hostile as unknown as Promise<void> }, { onError });
    logger.log(event);
    await logger.flush();
    expect((errors[0] as Error).message).toBe("then exploded");
  });

  it("survives something that is not a logger at all", async () => {
    const { errors, onError } = reports();
    const logger = bestEffort(null as unknown as Logger, { onError });
    expect(() => logger.log(event)).not.toThrow();
    await logger.flush();
    expect(errors).toHaveLength(1);
    expect(logger.failureCount).toBe(2);
  });
});

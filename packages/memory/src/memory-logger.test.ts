import type { DecisionEvent } from "@loop/core";
import { describe, expect, it } from "vitest";
import { MemoryLogger } from "./memory-logger.js";

function event(name: string, iteration: number): DecisionEvent {
  return {
    terminal_id: "default",
    event: name,
    payload: { iteration },
    timestamp: `2026-03-14T10:00:0${iteration}.000Z`,
  } as DecisionEvent;
}

describe("MemoryLogger", () => {
  it("keeps every event in the order it was logged", () => {
    const logger = new MemoryLogger();
    const events = [event("iteration_start", 1), event("iteration_end", 1), event("loop_exit", 1)];
    for (const logged of events) logger.log(logged);
    expect(logger.events).toEqual(events);
    expect(logger.capacity).toBe(Number.POSITIVE_INFINITY);
    expect(logger.dropped).toBe(0);
  });

  it("drops the oldest events beyond its capacity, and counts them", () => {
    const logger = new MemoryLogger({ capacity: 2 });
    for (const iteration of [1, 2, 3, 4, 5]) logger.log(event("iteration_end", iteration));
    expect(logger.events.map((kept) => kept.payload)).toEqual([{ iteration: 4 }, { iteration: 5 }]);
    expect(logger.dropped).toBe(3);
  });

  it("finds events by name, and the latest one", () => {
    const logger = new MemoryLogger();
    logger.log(event("iteration_start", 1));
    logger.log(event("iteration_end", 1));
    logger.log(event("iteration_start", 2));
    logger.log(event("iteration_end", 2));
    expect(logger.ofType("iteration_end").map((found) => found.payload)).toEqual([
      { iteration: 1 },
      { iteration: 2 },
    ]);
    expect(logger.ofType("loop_exit")).toEqual([]);
    expect(logger.last("iteration_start")?.payload).toEqual({ iteration: 2 });
    expect(logger.last()?.event).toBe("iteration_end");
    expect(logger.last("error")).toBeUndefined();
  });

  it("forgets events and the dropped count on clear()", () => {
    const logger = new MemoryLogger({ capacity: 1 });
    logger.log(event("iteration_start", 1));
    logger.log(event("iteration_end", 1));
    logger.clear();
    expect(logger.events).toEqual([]);
    expect(logger.dropped).toBe(0);
    logger.log(event("iteration_start", 2));
    expect(logger.events).toHaveLength(1);
  });

  it("flushes at once", async () => {
    await expect(new MemoryLogger().flush()).resolves.toBeUndefined();
  });

  it.each([0, -1, 1.5, Number.NaN])("rejects the capacity %s", (capacity) => {
    expect(() => new MemoryLogger({ capacity })).toThrow(RangeError);
  });
});

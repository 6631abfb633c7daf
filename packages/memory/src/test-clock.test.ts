import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestClock } from "./test-clock.js";

const hour = 60 * 60 * 1000;

describe("createTestClock", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("starts at 2026-01-01T00:00:00.000Z, or at the given time", () => {
    expect(new Date(createTestClock().now()).toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(createTestClock(null).now()).toBe(Date.UTC(2026, 0, 1));
    expect(createTestClock({ start: 0 }).now()).toBe(0);
    expect(createTestClock({ start: new Date("2026-03-14T10:00:00Z") }).now()).toBe(
      Date.parse("2026-03-14T10:00:00Z"),
    );
  });

  it("sleeps an hour in virtual time, without waiting, and records it", async () => {
    const clock = createTestClock({ start: 0 });
    const started = performance.now();
    await clock.sleep(hour);
    await clock.sleep(250);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(clock.now()).toBe(hour + 250);
    expect(clock.sleeps).toEqual([hour, 250]);
    expect(clock.totalSlept).toBe(hour + 250);
    expect(clock.pendingSleeps).toBe(0);
  });

  it("ends a sleep only once nothing else is pending: work that settles wins a race", async () => {
    const clock = createTestClock({ start: 0 });
    const work = async (): Promise<string> => {
      for (let step = 0; step < 100; step += 1) await Promise.resolve();
      return "work";
    };
    const winner = await Promise.race([clock.sleep(hour).then(() => "timeout"), work()]);
    expect(winner).toBe("work");
    expect(clock.now()).toBe(0);
    expect(clock.pendingSleeps).toBe(1);
    // Nothing else is pending now: the sleep ends and the clock jumps to its end.
    await vi.waitFor(() => expect(clock.pendingSleeps).toBe(0));
    expect(clock.now()).toBe(hour);
  });

  it("ends a sleep raced against work that hangs, as a timeout does", async () => {
    const clock = createTestClock({ start: 0 });
    const hanging = new Promise<string>(() => {});
    expect(await Promise.race([clock.sleep(hour).then(() => "timeout"), hanging])).toBe("timeout");
    expect(clock.now()).toBe(hour);
  });

  it("ends concurrent sleeps earliest first, the clock at each one's end", async () => {
    const clock = createTestClock({ start: 0 });
    const ended: [string, number][] = [];
    const sleep = (name: string, ms: number) =>
      clock.sleep(ms).then(() => {
        ended.push([name, clock.now()]);
      });
    await Promise.all([sleep("long", 3_000), sleep("short", 1_000), sleep("also short", 1_000)]);
    expect(ended).toEqual([
      ["short", 1_000],
      ["also short", 1_000],
      ["long", 3_000],
    ]);
    expect(clock.totalSlept).toBe(5_000);
  });

  it("ends, on advance or set, the sleeps whose end the clock reaches", async () => {
    const clock = createTestClock({ start: 0 });
    const ended: number[] = [];
    void clock.sleep(1_000).then(() => ended.push(1_000));
    void clock.sleep(5_000).then(() => ended.push(5_000));
    expect(clock.advance(2_000)).toBe(2_000);
    await Promise.resolve();
    expect(ended).toEqual([1_000]);
    expect(clock.set(10_000)).toBe(10_000);
    await Promise.resolve();
    expect(ended).toEqual([1_000, 5_000]);
  });

  it("keeps a sleep's end fixed when the clock is set back", async () => {
    const clock = createTestClock({ start: 10_000 });
    const sleeping = clock.sleep(1_000);
    clock.set(0);
    await sleeping;
    expect(clock.now()).toBe(11_000);
  });

  it("resolves at once, without error or moving the clock, when the signal has already fired", async () => {
    const clock = createTestClock({ start: 0 });
    await expect(clock.sleep(hour, AbortSignal.abort())).resolves.toBeUndefined();
    expect(clock.now()).toBe(0);
    expect(clock.sleeps).toEqual([hour]);
    expect(clock.totalSlept).toBe(0);
    expect(clock.pendingSleeps).toBe(0);
  });

  it("resolves early, without error or moving the clock, when the signal fires during the sleep", async () => {
    const clock = createTestClock({ start: 0 });
    const controller = new AbortController();
    const sleeping = clock.sleep(hour, controller.signal);
    controller.abort();
    await expect(sleeping).resolves.toBeUndefined();
    expect(clock.now()).toBe(0);
    expect(clock.totalSlept).toBe(0);
    expect(clock.pendingSleeps).toBe(0);
  });

  it("counts a negative sleep as 0, as setTimeout does, and rejects a non-finite one", async () => {
    const clock = createTestClock({ start: 0 });
    await clock.sleep(-5);
    expect(clock.now()).toBe(0);
    expect(clock.sleeps).toEqual([-5]);
    expect(clock.totalSlept).toBe(0);
    await expect(clock.sleep(Number.NaN)).rejects.toThrow(RangeError);
    await expect(clock.sleep(Number.POSITIVE_INFINITY)).rejects.toThrow(
      "TestClock.sleep: ms must be a finite number, got Infinity",
    );
    expect(clock.sleeps).toEqual([-5]);
  });

  it("never reads the host's time or sets a real timer", async () => {
    const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
    const setIntervalSpy = vi.spyOn(globalThis, "setInterval");
    const dateNowSpy = vi.spyOn(Date, "now");
    const clock = createTestClock();
    await clock.sleep(hour, new AbortController().signal);
    clock.advance(1);
    clock.now();
    expect(setTimeoutSpy).not.toHaveBeenCalled();
    expect(setIntervalSpy).not.toHaveBeenCalled();
    expect(dateNowSpy).not.toHaveBeenCalled();
  });

  it("advances and sets the time without recording a sleep", () => {
    const clock = createTestClock({ start: 0 });
    expect(clock.advance(30_000)).toBe(30_000);
    expect(clock.now()).toBe(30_000);
    expect(clock.set(new Date("2026-03-14T10:00:00Z"))).toBe(Date.parse("2026-03-14T10:00:00Z"));
    expect(clock.set(10)).toBe(10);
    expect(clock.now()).toBe(10);
    expect(clock.sleeps).toEqual([]);
    expect(clock.totalSlept).toBe(0);
  });

  it("checks advance, set and its options", () => {
    const clock = createTestClock();
    expect(() => clock.advance(-1)).toThrow(
      "TestClock.advance: ms must be a finite number, 0 or more, got -1",
    );
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    expect(() => clock.set(new Date("later"))).toThrow("got an invalid Date");
    expect(() => createTestClock({ start: Number.NaN })).toThrow(
      "Option `start` must be a valid Date or finite epoch milliseconds, got NaN",
    );
    expect(() => createTestClock({ start: "2026" as unknown as number })).toThrow(RangeError);
  });
});

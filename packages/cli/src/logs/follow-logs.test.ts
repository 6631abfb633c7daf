import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "@loop/core";
import { createIterationLog, listIterationLogs } from "@loop/fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { followLogs } from "./follow-logs.js";
import { iterationRanges } from "./select-log.js";

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "loop-follow-logs-"));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const log = () => createIterationLog({ folder, terminalId: "term_001" });

/** Writes the log of `iteration`, started `iteration` seconds after a fixed time. */
const write = (iteration: number) =>
  log().write({
    iteration,
    kind: "task",
    taskId: `TASK-${iteration}`,
    attempt: 1,
    startedAt: Date.UTC(2026, 2, 14, 10, 0, iteration),
    endedAt: Date.UTC(2026, 2, 14, 10, 0, iteration),
    result: { output: `answer ${iteration}`, success: true, raw: `raw ${iteration}\n` },
  });

/** Follows the folder's logs, collecting the iterations printed, until `stop` is aborted. */
function follow(stop: AbortController) {
  const printed: number[] = [];
  let waited = 0;
  const done = followLogs({
    list: () => listIterationLogs({ folder, terminalId: "term_001" }),
    print: async (file) => {
      printed.push(file.iteration);
    },
    onWaiting: () => {
      waited += 1;
    },
    sleep: systemClock.sleep,
    pollMs: 5,
    signal: stop.signal,
  });
  return { printed, waited: () => waited, done };
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition() && Date.now() < deadline) await systemClock.sleep(5);
  expect(condition()).toBe(true);
}

describe("followLogs", () => {
  it("prints the newest log, then every new one in order, until the signal fires", async () => {
    await write(1);
    await write(2);
    const stop = new AbortController();
    const following = follow(stop);
    await until(() => following.printed.length === 1);
    expect(following.printed).toEqual([2]);
    await write(3);
    await write(4);
    await until(() => following.printed.length === 3);
    stop.abort();
    await following.done;
    expect(following.printed).toEqual([2, 3, 4]);
    expect(following.waited()).toBe(0);
  });

  it("says once that it waits when there is no log yet, then prints each one that comes", async () => {
    const stop = new AbortController();
    const following = follow(stop);
    await until(() => following.waited() === 1);
    await write(1);
    await write(2);
    await until(() => following.printed.length === 2);
    stop.abort();
    await following.done;
    expect(following.printed).toEqual([1, 2]);
    expect(following.waited()).toBe(1);
  });
});

describe("iterationRanges", () => {
  it("writes iteration numbers as ranges", () => {
    expect(iterationRanges([3, 1, 2, 8, 41, 40, 40])).toBe("1-3, 8, 40-41");
    expect(iterationRanges([7])).toBe("7");
    expect(iterationRanges([])).toBe("");
  });
});

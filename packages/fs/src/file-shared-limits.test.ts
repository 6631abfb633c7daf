import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileSharedLimits } from "./file-shared-limits.js";

let directory: string;
const caller = { terminalId: "a", runId: null };

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "loop-file-shared-limits-"));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("createFileSharedLimits", () => {
  it("keeps the counters in its file: claims, costs and a release, shared by two instances", async () => {
    const path = join(directory, "limits.json");
    const first = createFileSharedLimits({ path, maxCallsPerHour: 2, maxCostUsd: 5 });
    const second = createFileSharedLimits({ path, maxCallsPerHour: 2, maxCostUsd: 5 });
    const claims = await Promise.all([
      first.claimCall(caller),
      second.claimCall(caller),
      first.claimCall(caller),
    ]);
    expect(claims.map((claim) => claim.granted).sort()).toEqual([false, true, true]);
    await second.recordCost({ ...caller, costUsd: 1.5 });
    const stored = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    expect(stored).toMatchObject({ version: 1, calls_made: 2, cost_usd: 1.5 });
    const granted = claims.find((claim) => claim.granted);
    await first.releaseCall({ ...caller, windowStart: granted?.usage.windowStart ?? 0 });
    expect(await second.readUsage()).toMatchObject({ callsThisHour: 1, costUsd: 1.5 });
    // No lock is left behind.
    await expect(readFile(`${path}.lock`)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses to guess from a broken counter file: every operation fails, naming the file", async () => {
    const path = join(directory, "limits.json");
    await writeFile(path, "{ not json");
    const limits = createFileSharedLimits({ path, maxCallsPerHour: 2 });
    await expect(limits.claimCall(caller)).rejects.toThrow(
      `${path} is not a shared limits counter file`,
    );
    expect(await readFile(path, "utf8")).toBe("{ not json");
  });

  it("checks its options first", () => {
    expect(() => createFileSharedLimits({} as never)).toThrow(
      "createFileSharedLimits: Missing required option `path`",
    );
    expect(() => createFileSharedLimits({ path: "x", maxCostUsd: -1 })).toThrow(RangeError);
    expect(() => createFileSharedLimits({ path: "x", lockWaitMs: -1 })).toThrow(
      "createFileSharedLimits: option `lockWaitMs` must be a finite number ≥ 0, got -1",
    );
  });
});

import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { waitForLine } from "./support/wait-for-line.js";

// Loops of several projects on one machine share one counter file: claims made at once from
// several processes are counted atomically, so together they get exactly the hourly limit.

const repositoryRoot = fileURLToPath(new URL("..", import.meta.url));
const claimerScript = fileURLToPath(
  new URL("./fixtures/shared-limits-claimer.ts", import.meta.url),
);
const hour = 3_600_000;

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "loop-shared-limits-"));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Runs `claimers` processes that each claim `count` calls at once; returns what each got. */
async function claimAtOnce(path: string, claimers: number, count: number, limit: number) {
  const children = Array.from({ length: claimers }, (_, claimer) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", claimerScript, path, String(claimer), String(count), String(limit)],
      { cwd: repositoryRoot, stdio: ["pipe", "pipe", "pipe"] },
    );
    let errors = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      errors += chunk.toString("utf8");
    });
    const exited = new Promise<void>((resolve, reject) => {
      child.once("exit", (code) =>
        code === 0 ? resolve() : reject(new Error(`claimer ${claimer} exited ${code}: ${errors}`)),
      );
    });
    return { child, exited };
  });
  await Promise.all(children.map(({ child }) => waitForLine(child, "ready", "claimer")));
  const done = children.map(({ child }) => waitForLine(child, "done", "claimer"));
  for (const { child } of children) child.stdin?.end("go\n");
  const lines = await Promise.all(done);
  await Promise.all(children.map(({ exited }) => exited));
  return lines.map((line) => Number(line.split(" ")[1]));
}

it("4 processes claiming 10 calls each at once get exactly the fleet's 15, and the file shows them", async () => {
  for (let tries = 0; ; tries += 1) {
    const path = join(directory, `limits-${tries}.json`);
    const hourBefore = Math.floor(Date.now() / hour);
    const granted = await claimAtOnce(path, 4, 10, 15);
    // A run that crossed a UTC hour counted in two windows: run it again (once).
    if (Math.floor(Date.now() / hour) !== hourBefore && tries === 0) continue;
    expect(granted.reduce((sum, count) => sum + count, 0)).toBe(15);
    const stored = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    expect(stored).toMatchObject({ version: 1, calls_made: 15 });
    expect(stored.cost_usd).toBeCloseTo(0.15, 10);
    expect(stored.window_start).toBe(new Date(hourBefore * hour).toISOString());
    return;
  }
}, 60_000);

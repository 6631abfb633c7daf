import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForLine } from "./support/wait-for-line.js";

// Several processes (loops in several terminals) append to one decision.log. Each line is one
// O_APPEND write; this proves on the machine's file system that lines never interleave and
// that rotation under contention loses none. Figures are printed for docs/state-and-logs.md.

const repositoryRoot = fileURLToPath(new URL("..", import.meta.url));
const writerScript = fileURLToPath(new URL("./fixtures/jsonl-logger-writer.ts", import.meta.url));
const largestLineBytes = 64 * 1024;

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "loop-jsonl-multiprocess-"));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Runs `writers` processes that each log `count` events into `path`, all started at once. */
async function runWriters(
  path: string,
  writers: number,
  count: number,
  rotation: { maxBytes: number; keep: number },
): Promise<{ milliseconds: number; writerMilliseconds: number[] }> {
  const children = Array.from({ length: writers }, (_, writer) => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        writerScript,
        path,
        String(writer),
        String(count),
        String(rotation.maxBytes),
        String(rotation.keep),
      ],
      { cwd: repositoryRoot, stdio: ["pipe", "pipe", "pipe"] },
    );
    let errors = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      errors += chunk.toString("utf8");
    });
    const exited = new Promise<void>((resolve, reject) => {
      child.once("exit", (code) =>
        code === 0 ? resolve() : reject(new Error(`writer ${writer} exited ${code}: ${errors}`)),
      );
    });
    return { child, exited };
  });
  await Promise.all(children.map(({ child }) => waitForLine(child, "ready", "writer")));
  const started = performance.now();
  const done = children.map(({ child }) => waitForLine(child, "done", "writer"));
  for (const { child } of children) child.stdin?.end("go\n");
  const lines = await Promise.all(done);
  await Promise.all(children.map(({ exited }) => exited));
  return {
    milliseconds: Math.round(performance.now() - started),
    writerMilliseconds: lines.map((line) => Number(line.split(" ")[1])),
  };
}

interface WrittenEvent {
  readonly terminal_id: string;
  readonly payload: { readonly writer: number; readonly index: number; readonly padding: string };
}

/** Parses every line of `file`, checking each is a whole event of one writer. */
async function readWrittenEvents(file: string): Promise<WrittenEvent[]> {
  const text = await readFile(file, "utf8");
  expect(text === "" || text.endsWith("\n"), `${file} ends with a newline`).toBe(true);
  const lines = text === "" ? [] : text.slice(0, -1).split("\n");
  return lines.map((line, lineIndex) => {
    let parsed: WrittenEvent;
    try {
      parsed = JSON.parse(line) as WrittenEvent;
    } catch {
      throw new Error(`${file}:${lineIndex + 1} is not one JSON event: ${line.slice(0, 120)}…`);
    }
    const { writer, padding } = parsed.payload;
    // Another writer's bytes inside this line would show as another letter.
    expect(padding).toBe(String.fromCharCode(97 + writer).repeat(padding.length));
    expect(parsed.terminal_id).toBe(`term_${writer}`);
    return parsed;
  });
}

/** Checks that every (writer, index) appears exactly once, each writer's in order. */
function expectEveryEventOnce(events: readonly WrittenEvent[], writers: number, count: number) {
  const seen = new Set<string>();
  for (const { payload } of events) {
    const key = `${payload.writer}:${payload.index}`;
    expect(seen.has(key), `event ${key} appears twice`).toBe(false);
    seen.add(key);
  }
  expect(seen.size).toBe(writers * count);
}

describe("createJsonlLogger with several processes on one file", () => {
  it("never interleaves lines: 4 processes × 2,000 events up to 64 KiB", async () => {
    const path = join(directory, "shared", "decision.log");
    const writers = 4;
    const count = 2_000;
    const timing = await runWriters(path, writers, count, {
      maxBytes: Number.POSITIVE_INFINITY,
      keep: 3,
    });
    const events = await readWrittenEvents(path);
    expectEveryEventOnce(events, writers, count);
    for (let writer = 0; writer < writers; writer += 1) {
      const indexes = events
        .filter((event) => event.payload.writer === writer)
        .map((event) => event.payload.index);
      expect(indexes).toEqual(Array.from({ length: count }, (_, index) => index));
    }
    const { size } = await stat(path);
    const largest = Math.max(
      ...events.map((event) => Buffer.byteLength(`${JSON.stringify(event)}\n`)),
    );
    const switches = events.filter(
      (event, index) => index > 0 && events[index - 1]?.payload.writer !== event.payload.writer,
    ).length;
    expect(largest).toBeGreaterThan(largestLineBytes - 400);
    expect(largest).toBeLessThanOrEqual(largestLineBytes);
    expect(switches).toBeGreaterThan(0);
    console.info(
      `jsonl multiprocess: ${writers}×${count} events, ${(size / 1024 / 1024).toFixed(1)} MiB, largest line ${largest} B, ${switches} writer switches, ${timing.milliseconds} ms (${Math.round((writers * count * 1000) / timing.milliseconds)} events/s), per writer ${timing.writerMilliseconds.join("/")} ms`,
    );
  }, 120_000);

  it("loses no line when the processes rotate the log as they go", async () => {
    const path = join(directory, "rotating", "decision.log");
    const writers = 4;
    const count = 500;
    const maxBytes = 512 * 1024;
    const timing = await runWriters(path, writers, count, { maxBytes, keep: 1_000 });
    const names = await readdir(join(directory, "rotating"));
    expect(names).not.toContain("decision.log.lock");
    const rotated = names.filter((name) => /^decision\.log\.\d+$/.test(name));
    expect(rotated.length).toBeGreaterThan(5);
    const events: WrittenEvent[] = [];
    let largestFile = 0;
    for (const name of names) {
      const file = join(directory, "rotating", name);
      events.push(...(await readWrittenEvents(file)));
      largestFile = Math.max(largestFile, (await stat(file)).size);
    }
    expectEveryEventOnce(events, writers, count);
    // A file overshoots only by the lines of writers that opened it just before it rotated.
    expect(largestFile).toBeLessThanOrEqual(maxBytes + (writers - 1) * largestLineBytes);
    console.info(
      `jsonl multiprocess rotation: ${writers}×${count} events, maxBytes ${maxBytes}, ${rotated.length} rotations, largest file ${largestFile} B, ${timing.milliseconds} ms`,
    );
  }, 120_000);
});

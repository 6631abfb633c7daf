import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DecisionEvent } from "@loop/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createJsonlLogger } from "./jsonl-logger.js";
import { LogWriteError } from "./log-write-error.js";

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "loop-jsonl-logger-"));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** A decision event of the seed's shape, numbered by `iteration`. */
function event(iteration: number, extra: Record<string, unknown> = {}): DecisionEvent {
  return {
    terminal_id: "term_001",
    event: "iteration_start",
    payload: { iteration, current_task_id: `TASK-${iteration}`, total_tasks: 5, ...extra },
    timestamp: "2026-03-14T10:00:00",
  } as DecisionEvent;
}

/** The events in a JSON-lines file, checking that it ends with a newline. */
async function readEvents(path: string): Promise<unknown[]> {
  const text = await readFile(path, "utf8");
  if (text === "") return [];
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("createJsonlLogger", () => {
  it("checks its options before doing anything", () => {
    expect(() => createJsonlLogger(undefined as never)).toThrow(
      "createJsonlLogger: Missing required option `path`",
    );
    expect(() => createJsonlLogger({} as never)).toThrow("Missing required option `path`");
    expect(() => createJsonlLogger({ path: "" })).toThrow("must be a non-empty string");
    expect(() => createJsonlLogger({ path: "a.log", maxBytes: 0 })).toThrow("`maxBytes`");
    expect(() => createJsonlLogger({ path: "a.log", keep: -1 })).toThrow("`keep`");
    expect(() => createJsonlLogger({ path: "a.log", keep: 1.5 })).toThrow("`keep`");
  });

  it("appends one JSON line per event, in the seed's shape, creating parent folders", async () => {
    const path = join(directory, ".claude", "loop", "logs", "decision.log");
    const logger = createJsonlLogger({ path });
    expect(logger.path).toBe(path);
    await logger.log({
      terminal_id: "term_001",
      event: "iteration_start",
      payload: { iteration: 1, current_task_id: "TASK-001", total_tasks: 5 },
      timestamp: "2026-03-14T10:00:00",
    } as DecisionEvent);
    expect(await readFile(path, "utf8")).toBe(
      '{"terminal_id":"term_001","event":"iteration_start","payload":{"iteration":1,"current_task_id":"TASK-001","total_tasks":5},"timestamp":"2026-03-14T10:00:00"}\n',
    );
  });

  it("never follows a symbolic link at its path, and creates its file 0600 in a 0700 folder", async () => {
    const target = join(directory, "bashrc");
    await writeFile(target, "# my shell\n");
    const linked = join(directory, "decision.log");
    await symlink(target, linked);
    const logger = createJsonlLogger({ path: linked });
    await expect(logger.log(event(1))).rejects.toThrow(LogWriteError);
    expect(await readFile(target, "utf8")).toBe("# my shell\n");

    const fresh = join(directory, "logs", "decision.log");
    await createJsonlLogger({ path: fresh }).log(event(1));
    expect((await stat(fresh)).mode & 0o777).toBe(0o600);
    expect((await stat(join(directory, "logs"))).mode & 0o777).toBe(0o700);
  });

  it("starts a new line after a torn last line (a writer killed mid-line), never merging with it", async () => {
    const path = join(directory, "decision.log");
    await writeFile(path, `${JSON.stringify(event(1))}\n{"terminal_id":"term_001","ev`);
    const logger = createJsonlLogger({ path });
    await logger.log(event(2));
    const lines = (await readFile(path, "utf8")).split("\n");
    expect(lines).toEqual([
      JSON.stringify(event(1)),
      '{"terminal_id":"term_001","ev',
      JSON.stringify(event(2)),
      "",
    ]);
  });

  it("keeps appending to what is already there", async () => {
    const path = join(directory, "decision.log");
    await writeFile(path, '{"earlier":true}\n');
    const logger = createJsonlLogger({ path });
    await logger.log(event(1));
    expect(await readEvents(path)).toEqual([{ earlier: true }, event(1)]);
  });

  it("writes events in the order they were logged; flush waits for all", async () => {
    const path = join(directory, "decision.log");
    const logger = createJsonlLogger({ path });
    const pending = Array.from({ length: 200 }, (_, index) =>
      logger.log(event(index, { padding: "x".repeat((index * 37) % 500) })),
    );
    await logger.flush();
    expect(await readEvents(path)).toEqual(
      Array.from({ length: 200 }, (_, index) =>
        event(index, { padding: "x".repeat((index * 37) % 500) }),
      ),
    );
    await Promise.all(pending);
  });

  it("settles each log promise once its line is in the file", async () => {
    const path = join(directory, "decision.log");
    const logger = createJsonlLogger({ path });
    void logger.log(event(1));
    await logger.log(event(2));
    expect(await readEvents(path)).toEqual([event(1), event(2)]);
  });

  it("escapes line breaks inside values, so one event stays one line", async () => {
    const path = join(directory, "decision.log");
    const logger = createJsonlLogger({ path });
    await logger.log(event(1, { error_message: "line one\nline two\r\n\u2028end" }));
    const text = await readFile(path, "utf8");
    expect(text.split("\n")).toHaveLength(2);
    expect(await readEvents(path)).toEqual([
      event(1, { error_message: "line one\nline two\r\n\u2028end" }),
    ]);
  });

  it("rejects an event that cannot be written as JSON, and goes on with the next", async () => {
    const path = join(directory, "decision.log");
    const logger = createJsonlLogger({ path });
    await expect(logger.log(event(1, { size: 10n }))).rejects.toThrow(TypeError);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(logger.log(event(2, circular))).rejects.toThrow("cannot be written as JSON");
    await logger.log(event(3));
    expect(await readEvents(path)).toEqual([event(3)]);
  });

  it("rejects with a LogWriteError when the parent is a file (ENOTDIR), and tries the next event again", async () => {
    const parent = join(directory, "logs");
    await writeFile(parent, "not a folder");
    const path = join(parent, "decision.log");
    const logger = createJsonlLogger({ path });
    const failure = await logger.log(event(1)).catch((error: unknown) => error);
    expect(LogWriteError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: "LOG_WRITE_ERROR", path, cause: { code: "ENOTDIR" } });
    expect((failure as Error).message).toContain(`Cannot write to log ${path}: ENOTDIR`);
    await rm(parent);
    await logger.log(event(2));
    expect(await readEvents(path)).toEqual([event(2)]);
  });

  it.skipIf(!existsSync("/dev/full"))(
    "rejects with a LogWriteError naming the file when the disk is full (ENOSPC)",
    async () => {
      const logger = createJsonlLogger({ path: "/dev/full" });
      const failure = await logger.log(event(1)).catch((error: unknown) => error);
      expect(LogWriteError.isInstance(failure)).toBe(true);
      expect(failure).toMatchObject({ path: "/dev/full", cause: { code: "ENOSPC" } });
      expect((failure as Error).message).toMatch(/^Cannot write to log \/dev\/full: ENOSPC/);
      await expect(logger.log(event(2))).rejects.toThrow("ENOSPC");
      await logger.flush();
    },
  );

  it("rejects events logged after close, having written the ones before", async () => {
    const path = join(directory, "decision.log");
    const logger = createJsonlLogger({ path });
    const first = logger.log(event(1));
    await logger.close();
    await first;
    await expect(logger.log(event(2))).rejects.toThrow("the log is closed");
    await logger.close();
    expect(await readEvents(path)).toEqual([event(1)]);
  });
});

describe("createJsonlLogger rotation", () => {
  /** The size of `event(n)`'s line; all are the same size for n < 10. */
  const lineBytes = Buffer.byteLength(`${JSON.stringify(event(1))}\n`);

  it("defaults to 10 MiB and 3 files", async () => {
    const path = join(directory, "decision.log");
    await writeFile(path, "x".repeat(10 * 1024 * 1024 - lineBytes));
    const logger = createJsonlLogger({ path });
    await logger.log(event(1));
    expect(await readdir(directory)).toEqual(["decision.log"]);
    await logger.log(event(2));
    expect((await readdir(directory)).sort()).toEqual(["decision.log", "decision.log.1"]);
    expect(await readEvents(path)).toEqual([event(2)]);
  });

  it("moves the log to .1 before a line that would make it larger than maxBytes", async () => {
    const path = join(directory, "decision.log");
    const logger = createJsonlLogger({ path, maxBytes: lineBytes * 2 });
    await logger.log(event(1));
    await logger.log(event(2));
    expect(await readdir(directory)).toEqual(["decision.log"]);
    await logger.log(event(3));
    expect((await readdir(directory)).sort()).toEqual(["decision.log", "decision.log.1"]);
    expect(await readEvents(`${path}.1`)).toEqual([event(1), event(2)]);
    expect(await readEvents(path)).toEqual([event(3)]);
  });

  it("shifts .1 → .2 … and deletes what is older than `keep` files", async () => {
    const path = join(directory, "decision.log");
    const logger = createJsonlLogger({ path, maxBytes: lineBytes, keep: 2 });
    for (let index = 1; index <= 5; index += 1) await logger.log(event(index));
    expect((await readdir(directory)).sort()).toEqual([
      "decision.log",
      "decision.log.1",
      "decision.log.2",
    ]);
    expect(await readEvents(path)).toEqual([event(5)]);
    expect(await readEvents(`${path}.1`)).toEqual([event(4)]);
    expect(await readEvents(`${path}.2`)).toEqual([event(3)]);
  });

  it("with keep 0, deletes the full log instead", async () => {
    const path = join(directory, "decision.log");
    const logger = createJsonlLogger({ path, maxBytes: lineBytes, keep: 0 });
    for (let index = 1; index <= 3; index += 1) await logger.log(event(index));
    expect(await readdir(directory)).toEqual(["decision.log"]);
    expect(await readEvents(path)).toEqual([event(3)]);
  });

  it("writes a line larger than maxBytes whole, alone in a fresh file", async () => {
    const path = join(directory, "decision.log");
    const logger = createJsonlLogger({ path, maxBytes: lineBytes * 2 });
    const large = event(2, { output: "y".repeat(lineBytes * 3) });
    await logger.log(event(1));
    await logger.log(large);
    await logger.log(event(3));
    expect(await readEvents(`${path}.2`)).toEqual([event(1)]);
    expect(await readEvents(`${path}.1`)).toEqual([large]);
    expect(await readEvents(path)).toEqual([event(3)]);
  });

  it("never rotates with maxBytes Infinity", async () => {
    const path = join(directory, "decision.log");
    const logger = createJsonlLogger({ path, maxBytes: Number.POSITIVE_INFINITY });
    for (let index = 1; index <= 20; index += 1) await logger.log(event(index));
    expect(await readdir(directory)).toEqual(["decision.log"]);
  });

  it("removes a rotation lock left by a crashed process", async () => {
    const path = join(directory, "decision.log");
    await writeFile(`${path}.lock`, '{"pid":1}\n');
    const longAgo = new Date(Date.now() - 60_000);
    await utimes(`${path}.lock`, longAgo, longAgo);
    const logger = createJsonlLogger({ path, maxBytes: lineBytes });
    await logger.log(event(1));
    await logger.log(event(2));
    expect((await readdir(directory)).sort()).toEqual(["decision.log", "decision.log.1"]);
  });

  it("loses no line when several loggers in one process share a file and rotate it", async () => {
    const path = join(directory, "decision.log");
    const loggers = Array.from({ length: 4 }, () =>
      createJsonlLogger({ path, maxBytes: lineBytes * 10, keep: 100 }),
    );
    await Promise.all(
      loggers.flatMap((logger, writer) =>
        Array.from({ length: 50 }, (_, index) => logger.log(event(index, { writer }))),
      ),
    );
    const files = (await readdir(directory)).filter((name) => name.startsWith("decision.log"));
    expect(files).not.toContain("decision.log.lock");
    const events = (
      await Promise.all(files.map((name) => readEvents(join(directory, name))))
    ).flat();
    expect(events).toHaveLength(200);
    for (let writer = 0; writer < 4; writer += 1) {
      for (let index = 0; index < 50; index += 1) {
        expect(events).toContainEqual(event(index, { writer }));
      }
    }
  });
});

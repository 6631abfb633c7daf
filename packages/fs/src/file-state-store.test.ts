import { spawnSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { homedir, hostname, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { StateLockedError, StateStoreError } from "@loop/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatLockHolder } from "./file-lock-holder.js";
import { createFileStateStore } from "./file-state-store.js";

let directory: string;
let root: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "loop-file-state-store-"));
  root = join(directory, "state");
});

afterEach(async () => {
  await chmod(directory, 0o700).catch(() => undefined);
  await rm(directory, { recursive: true, force: true });
});

/** Every file and directory under `directory`, relative to it, sorted. */
async function walk(from = directory): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const path = join(from, entry.name);
    found.push(relative(directory, path));
    if (entry.isDirectory()) found.push(...(await walk(path)));
  }
  return found.sort();
}

/** The pid of a process that has exited and been reaped. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ["-e", ""]);
  if (pid === undefined) throw new Error("could not start a child process");
  return pid;
}

const runsAsRoot = process.getuid?.() === 0;

describe("createFileStateStore options", () => {
  it("defaults to the seed's ~/.claude/state without touching the disk", () => {
    const store = createFileStateStore();
    expect(store.root).toBe(join(homedir(), ".claude", "state"));
    expect(createFileStateStore({}).root).toBe(store.root);
    expect(createFileStateStore(null).root).toBe(store.root);
    expect(store.specificationVersion).toBe("v1");
  });

  it("expands ~ and refuses an empty or relative root", () => {
    expect(createFileStateStore({ root: "~/states" }).root).toBe(join(homedir(), "states"));
    expect(createFileStateStore({ root: "~" }).root).toBe(homedir());
    expect(createFileStateStore({ root: "/a/b/../c/" }).root).toBe("/a/c");
    expect(() => createFileStateStore({ root: "" })).toThrow(
      "createFileStateStore: option `root` must not be empty",
    );
    expect(() => createFileStateStore({ root: "state" })).toThrow(
      'option `root` must be an absolute path, got "state"',
    );
    expect(() => createFileStateStore({ root: "./state" })).toThrow(TypeError);
    expect(() => createFileStateStore({ root: 42 as never })).toThrow("must be a string");
    expect(() => createFileStateStore({ root: "/a\0b" })).toThrow("NUL");
    expect(() => createFileStateStore({ root, otherHostLockMaxAgeMs: -1 })).toThrow(
      "`otherHostLockMaxAgeMs`",
    );
    expect(() => createFileStateStore("root" as never)).toThrow("options must be an object");
  });
});

describe("FileStateStore on disk", () => {
  it("lists the terminals that have a folder, sorted, and none before the first write", async () => {
    const store = createFileStateStore({ root });
    expect(await store.terminals()).toEqual([]);
    await store.set("zeta", "loop_state", "{}");
    await store.set("alpha", "loop_metrics", "{}");
    await mkdir(join(root, "terminals", "not safe!"), { recursive: true });
    await writeFile(join(root, "terminals", "stray.txt"), "");
    expect(await store.terminals()).toEqual(["alpha", "zeta"]);
  });

  it("keeps the seed's layout: <root>/terminals/<id>/<key>.json and <key>.json.bak", async () => {
    const store = createFileStateStore({ root });
    await store.set("term_001", "loop_state", '{"v":1}');
    await store.set("term_001", "loop_metrics", '{"iterations":1}');
    expect(await walk()).toEqual([
      "state",
      "state/terminals",
      "state/terminals/term_001",
      "state/terminals/term_001/loop_metrics.json",
      "state/terminals/term_001/loop_state.json",
    ]);
    const terminal = join(root, "terminals", "term_001");
    expect(await readFile(join(terminal, "loop_state.json"), "utf8")).toBe('{"v":1}');

    await store.set("term_001", "loop_state", '{"v":2}');
    expect(await readFile(join(terminal, "loop_state.json"), "utf8")).toBe('{"v":2}');
    expect(await readFile(join(terminal, "loop_state.json.bak"), "utf8")).toBe('{"v":1}');
    expect(await store.get("term_001", "loop_state")).toBe('{"v":2}');
    expect(await store.get("term_001", "loop_state", "current")).toBe('{"v":2}');
    expect(await store.get("term_001", "loop_state", "backup")).toBe('{"v":1}');
    expect(await store.get("term_001", "loop_metrics", "backup")).toBeNull();
    expect(await store.get("term_002", "loop_state")).toBeNull();

    await store.delete("term_001", "loop_state");
    await store.delete("term_001", "loop_state");
    expect(await readdir(terminal)).toEqual(["loop_metrics.json"]);
    expect(await store.get("term_001", "loop_state", "backup")).toBeNull();
  });

  it("returns the stored text byte for byte, unparsed", async () => {
    const store = createFileStateStore({ root });
    for (const text of ["", "not json", '{"ü":"✓ 🚀"}\r\n', "\u0000x"]) {
      await store.set("t", "loop_state", text);
      expect(await store.get("t", "loop_state")).toBe(text);
    }
  });

  it("writes the lock as {pid, host, startedAt} in <root>/terminals/<id>/.lock", async () => {
    const store = createFileStateStore({ root });
    const lock = await store.lock("term_001");
    const lockPath = join(root, "terminals", "term_001", ".lock");
    expect(JSON.parse(await readFile(lockPath, "utf8"))).toEqual({
      pid: process.pid,
      host: hostname(),
      startedAt: lock.holder.startedAt,
    });
    const error = await store.lock("term_001").catch((caught: unknown) => caught);
    expect(StateLockedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ terminalId: "term_001", holder: lock.holder });
    expect(String((error as Error).message)).toContain(`pid ${process.pid} on ${hostname()}`);
    const other = await store.lock("term_002");
    await other.release();
    await lock.release();
    expect(await readdir(join(root, "terminals", "term_001"))).toEqual([]);
  });

  it("takes over a stale lock and reports its holder", async () => {
    const store = createFileStateStore({ root });
    await mkdir(join(root, "terminals", "t"), { recursive: true });
    const stale = { pid: deadPid(), host: hostname(), startedAt: "2026-03-14T10:00:00.000Z" };
    await writeFile(join(root, "terminals", "t", ".lock"), formatLockHolder(stale));
    const lock = await store.lock("t");
    expect(lock.takenOverFrom).toEqual(stale);
    await lock.release();
  });

  it("passes the lock's abort signal through", async () => {
    const store = createFileStateStore({ root });
    const reason = new Error("cancelled");
    await expect(store.lock("t", { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  const hostileIds = [
    "../../etc",
    "..",
    ".",
    "../x",
    "a/b",
    "a\\b",
    "/etc",
    "x".repeat(10_000),
    "a\0b",
    "",
    ".hidden",
    "a b",
    "é",
    "line\nbreak",
  ];

  it("refuses hostile terminal ids and keys without creating anything", async () => {
    const store = createFileStateStore({ root });
    const attempts: Array<[string, () => Promise<unknown>]> = [];
    for (const id of hostileIds) {
      attempts.push(
        [`get ${id.slice(0, 20)}`, () => store.get(id, "loop_state")],
        [`get backup ${id.slice(0, 20)}`, () => store.get(id, "loop_state", "backup")],
        [`set ${id.slice(0, 20)}`, () => store.set(id, "loop_state", "{}")],
        [`delete ${id.slice(0, 20)}`, () => store.delete(id, "loop_state")],
        [`lock ${id.slice(0, 20)}`, () => store.lock(id)],
        [`key ${id.slice(0, 20)}`, () => store.set("safe", id, "{}")],
      );
    }
    attempts.push(
      ["non-string id", () => store.set(42 as never, "loop_state", "{}")],
      ["dotted key", () => store.set("safe", "loop_state.json", "{}")],
      ["version", () => store.get("safe", "loop_state", "../x" as never)],
      ["text", () => store.set("safe", "loop_state", { v: 1 } as never)],
    );
    for (const [name, attempt] of attempts) {
      const error = await attempt().then(
        () => new Error("resolved"),
        (caught: unknown) => caught,
      );
      expect(StateStoreError.isInstance(error), name).toBe(true);
    }
    expect(await walk()).toEqual([]);
    const long = await store.get("x".repeat(10_000), "loop_state").catch((caught: Error) => caught);
    expect(String((long as Error).message).length).toBeLessThan(300);
  });

  it("accepts every id and key of the allowed alphabet", async () => {
    const store = createFileStateStore({ root });
    for (const id of ["term_001", "a", "A.b-c_9", "x".repeat(64), "tty.s001"]) {
      await store.set(id, "loop_state", id);
      expect(await store.get(id, "loop_state")).toBe(id);
    }
    await store.set("t", "some_key", "k");
    await expect(store.set("x".repeat(65), "loop_state", "{}")).rejects.toThrow(StateStoreError);
  });

  it("reports a path whose parent is a file as a StateStoreError naming the path", async () => {
    await writeFile(join(directory, "file"), "not a directory");
    const store = createFileStateStore({ root: join(directory, "file") });
    for (const attempt of [
      () => store.set("t", "loop_state", "{}"),
      () => store.get("t", "loop_state"),
      () => store.delete("t", "loop_state"),
      () => store.lock("t"),
    ]) {
      const error = await attempt().catch((caught: unknown) => caught);
      expect(StateStoreError.isInstance(error)).toBe(true);
      expect(String((error as Error).message)).toContain(join(directory, "file", "terminals", "t"));
      expect((error as Error).cause).toMatchObject({ code: expect.stringMatching(/^E/) });
    }
  });

  it("reports a document that is a directory (EISDIR) instead of treating it as missing", async () => {
    const store = createFileStateStore({ root });
    await mkdir(join(root, "terminals", "t", "loop_state.json"), { recursive: true });
    const read = await store.get("t", "loop_state").catch((caught: unknown) => caught);
    expect(StateStoreError.isInstance(read)).toBe(true);
    expect((read as Error).cause).toMatchObject({ code: "EISDIR" });
    await expect(store.set("t", "loop_state", "{}")).rejects.toThrow(StateStoreError);
  });

  it.skipIf(runsAsRoot)("reports a directory it may not write to (EACCES)", async () => {
    const store = createFileStateStore({ root });
    await store.set("t", "loop_state", "{}");
    const terminal = join(root, "terminals", "t");
    await chmod(terminal, 0o500);
    try {
      const error = await store
        .set("t", "loop_state", '{"v":2}')
        .catch((caught: unknown) => caught);
      expect(StateStoreError.isInstance(error)).toBe(true);
      expect((error as Error).cause).toMatchObject({ code: "EACCES" });
      expect(String((error as Error).message)).toContain(join(terminal, "loop_state.json"));
      expect(await store.get("t", "loop_state")).toBe("{}");
    } finally {
      await chmod(terminal, 0o700);
    }
  });

  it("ignores temporary files of a crashed writer and cleans them on its first write", async () => {
    // As a crashed earlier run leaves them: the document and the leftovers are there before
    // this process writes the document.
    const terminal = join(root, "terminals", "t");
    await mkdir(terminal, { recursive: true });
    await writeFile(join(terminal, "loop_state.json"), '{"v":1}');
    const pid = deadPid();
    await writeFile(join(terminal, `.loop_state.json.${pid}.0123456789ab.tmp`), '{"v":');
    await writeFile(join(terminal, `.loop_state.json.bak.${pid}.0123456789ab.tmp`), '{"v');
    const store = createFileStateStore({ root });
    expect(await store.get("t", "loop_state")).toBe('{"v":1}');
    expect(await store.get("t", "loop_state", "backup")).toBeNull();
    await store.set("t", "loop_state", '{"v":2}');
    expect((await readdir(terminal)).sort()).toEqual(["loop_state.json", "loop_state.json.bak"]);
  });

  it("never tears a document under concurrent sets, and applies them in call order", async () => {
    const store = createFileStateStore({ root });
    const texts = Array.from({ length: 40 }, (_, index) =>
      JSON.stringify({ sequence: index, padding: "y".repeat(1000 + index) }),
    );
    const reads: Array<Promise<string | null>> = [];
    await Promise.all(
      texts.map((text) => {
        reads.push(store.get("t", "loop_state"));
        return store.set("t", "loop_state", text);
      }),
    );
    for (const read of await Promise.all(reads)) {
      if (read !== null) expect(texts).toContain(read);
    }
    expect(await store.get("t", "loop_state")).toBe(texts[39]);
    expect(await store.get("t", "loop_state", "backup")).toBe(texts[38]);
  });
});

import { spawnSync } from "node:child_process";
import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  utimes,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { atomicWriteFile } from "./atomic-write.js";
import { temporaryFileWriterPid, temporaryPathFor } from "./atomic-write-temporary-file.js";

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "loop-atomic-write-"));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** The pid of a process that has exited and been reaped (started once: starting node is slow). */
let exitedPid: number | undefined;
function deadPid(): number {
  exitedPid ??= spawnSync(process.execPath, ["-e", ""]).pid;
  if (exitedPid === undefined) throw new Error("could not start a child process");
  return exitedPid;
}

/** The directory's entries, sorted. */
async function entries(): Promise<string[]> {
  return (await readdir(directory)).sort();
}

describe("atomicWriteFile", () => {
  it("creates the file and leaves no temporary file behind", async () => {
    const path = join(directory, "status.json");
    await atomicWriteFile(path, '{"a":1}\n');
    expect(await readFile(path, "utf8")).toBe('{"a":1}\n');
    expect(await entries()).toEqual(["status.json"]);
  });

  it("replaces the content and keeps the replaced version as the backup", async () => {
    const path = join(directory, "loop_state.json");
    const backupPath = `${path}.bak`;
    await atomicWriteFile(path, "one", { backupPath });
    expect(await entries()).toEqual(["loop_state.json"]);
    await atomicWriteFile(path, "two", { backupPath });
    expect(await readFile(path, "utf8")).toBe("two");
    expect(await readFile(backupPath, "utf8")).toBe("one");
    await atomicWriteFile(path, "three", { backupPath });
    expect(await readFile(path, "utf8")).toBe("three");
    expect(await readFile(backupPath, "utf8")).toBe("two");
    expect(await entries()).toEqual(["loop_state.json", "loop_state.json.bak"]);
  });

  it("with `durable: false` still replaces whole, keeps the backup and the bits, leaves no temporary file", async () => {
    const path = join(directory, "status.json");
    const backupPath = `${path}.bak`;
    await atomicWriteFile(path, "one", { durable: false, mode: 0o600 });
    await atomicWriteFile(path, "two", { backupPath, durable: false });
    expect(await readFile(path, "utf8")).toBe("two");
    expect(await readFile(backupPath, "utf8")).toBe("one");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await entries()).toEqual(["status.json", "status.json.bak"]);
  });

  it("keeps the backup apart from the new file (no shared inode after the write)", async () => {
    const path = join(directory, "loop_state.json");
    const backupPath = `${path}.bak`;
    await atomicWriteFile(path, "old", { backupPath });
    await atomicWriteFile(path, "new", { backupPath });
    expect((await stat(path)).ino).not.toBe((await stat(backupPath)).ino);
    await writeFile(path, "edited in place");
    expect(await readFile(backupPath, "utf8")).toBe("old");
  });

  it("keeps the permission bits of the file it replaces", async () => {
    const path = join(directory, "private.json");
    await writeFile(path, "old", { mode: 0o600 });
    await chmod(path, 0o600);
    await atomicWriteFile(path, "new");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it("creates a new file with `mode` exactly, and its folder with search added; a replaced file keeps its bits", async () => {
    const path = join(directory, "state", "loop_state.json");
    await atomicWriteFile(path, "new", { mode: 0o600, createDirectory: true });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(directory, "state"))).mode & 0o777).toBe(0o700);
    await chmod(path, 0o640);
    await atomicWriteFile(path, "newer", { mode: 0o600 });
    expect((await stat(path)).mode & 0o777).toBe(0o640);
    expect(() => atomicWriteFile(path, "x", { mode: 0o1000 })).toThrow(
      "atomicWriteFile: `mode` must be permission bits from 0 to 0o777, got 512",
    );
  });

  it("leaves an existing backup alone when there is no current file to keep", async () => {
    const path = join(directory, "loop_state.json");
    const backupPath = `${path}.bak`;
    await writeFile(backupPath, "last good");
    await atomicWriteFile(path, "fresh", { backupPath });
    expect(await readFile(backupPath, "utf8")).toBe("last good");
  });

  it("refuses a backup path equal to the path, and non-string arguments", () => {
    const path = join(directory, "a.json");
    expect(() => atomicWriteFile(path, "x", { backupPath: path })).toThrow(TypeError);
    expect(() => atomicWriteFile("", "x")).toThrow("non-empty string");
    expect(() => atomicWriteFile(path, 42 as never)).toThrow("must be a string");
  });

  it("throws the system error and removes its temporary files when the rename fails", async () => {
    const path = join(directory, "occupied");
    await mkdir(path);
    await writeFile(join(directory, "x"), "x");
    await expect(
      atomicWriteFile(path, "text", { backupPath: `${path}.bak` }),
    ).rejects.toMatchObject({ code: expect.stringMatching(/^(EISDIR|EPERM|EEXIST|ENOTEMPTY)$/) });
    expect(await entries()).toEqual(["occupied", "x"]);
  });

  it("throws ENOENT when the directory does not exist", async () => {
    await expect(atomicWriteFile(join(directory, "missing", "a.json"), "x")).rejects.toMatchObject({
      code: "ENOENT",
    });
  });

  it("looks for crashed writers' files on this process's first write of a file only", async () => {
    const path = join(directory, "once.json");
    await atomicWriteFile(path, "first");
    // Left by a writer in another process that crashed after this one's first write.
    const crashed = join(directory, `.once.json.${deadPid()}.0123456789ab.tmp`);
    await writeFile(crashed, '{"torn');
    await atomicWriteFile(path, "second");
    expect(await entries()).toContain(crashed.slice(directory.length + 1));
    expect(await readFile(path, "utf8")).toBe("second");
  });

  it("leaves crashed writers' files to a caller that cleans them itself (removeLeftovers: false)", async () => {
    const path = join(directory, "fresh-name.log");
    const crashed = join(directory, `.fresh-name.log.${deadPid()}.0123456789ab.tmp`);
    await writeFile(crashed, "torn");
    await atomicWriteFile(path, "whole", { removeLeftovers: false });
    expect(await entries()).toEqual([crashed.slice(directory.length + 1), "fresh-name.log"]);
  });

  it("ignores and then removes temporary files of crashed writers, sparing live ones", async () => {
    const path = join(directory, "loop_state.json");
    await writeFile(path, "good");
    const crashed = join(directory, `.loop_state.json.${deadPid()}.0123456789ab.tmp`);
    const crashedBackup = join(directory, `.loop_state.json.bak.${deadPid()}.0123456789ab.tmp`);
    const live = join(directory, `.loop_state.json.${process.ppid}.0123456789ab.tmp`);
    const ancient = join(directory, `.loop_state.json.${process.ppid}.ba9876543210.tmp`);
    for (const file of [crashed, crashedBackup, live, ancient]) await writeFile(file, '{"torn');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(ancient, twoHoursAgo, twoHoursAgo);
    const unrelated = join(directory, ".other.json.1.0123456789ab.tmp");
    await writeFile(unrelated, "not ours");

    expect(await readFile(path, "utf8")).toBe("good");
    await atomicWriteFile(path, "next", { backupPath: `${path}.bak` });
    const names = await entries();
    expect(names).toContain(live.slice(directory.length + 1));
    expect(names).toContain(".other.json.1.0123456789ab.tmp");
    expect(names).not.toContain(crashed.slice(directory.length + 1));
    expect(names).not.toContain(crashedBackup.slice(directory.length + 1));
    expect(names).not.toContain(ancient.slice(directory.length + 1));
    expect(await readFile(path, "utf8")).toBe("next");
    expect(await readFile(`${path}.bak`, "utf8")).toBe("good");
  });

  it("names temporary files after the target, the pid and a random part", () => {
    const target = join(directory, "loop_state.json");
    const temporary = temporaryPathFor(target);
    const name = temporary.slice(directory.length + 1);
    expect(name).toMatch(
      new RegExp(`^\\.loop_state\\.json\\.${process.pid}\\.[0-9a-f]{12}\\.tmp$`),
    );
    expect(temporaryPathFor(target)).not.toBe(temporary);
    expect(temporaryFileWriterPid(name, target)).toBe(process.pid);
    expect(temporaryFileWriterPid(name, `${target}.bak`)).toBeUndefined();
    expect(temporaryFileWriterPid(".loop_state.json.bak.1.0123456789ab.tmp", target)).toBe(
      undefined,
    );
  });

  it("applies concurrent writes from one process in call order, never torn", async () => {
    const path = join(directory, "loop_state.json");
    const backupPath = `${path}.bak`;
    const texts = Array.from({ length: 60 }, (_, index) =>
      JSON.stringify({ sequence: index, padding: "x".repeat(index * 100) }),
    );
    await Promise.all(texts.map((text) => atomicWriteFile(path, text, { backupPath })));
    expect(await readFile(path, "utf8")).toBe(texts[59]);
    expect(await readFile(backupPath, "utf8")).toBe(texts[58]);
    expect(await entries()).toEqual(["loop_state.json", "loop_state.json.bak"]);
  });

  it("creates missing directories on request, inside the queue (call order kept)", async () => {
    const path = join(directory, "a", "b", "status.json");
    const writes = ["1", "2", "3"].map((text) =>
      atomicWriteFile(path, text, { backupPath: `${path}.bak`, createDirectory: true }),
    );
    await Promise.all(writes);
    expect(await readFile(path, "utf8")).toBe("3");
    expect(await readFile(`${path}.bak`, "utf8")).toBe("2");
  });

  it("keeps going after a failed write queued before it", async () => {
    const path = join(directory, "a.json");
    const failing = atomicWriteFile(path, "x", { backupPath: join(directory, "missing", "a.bak") });
    const next = atomicWriteFile(path, "y");
    await expect(failing).rejects.toMatchObject({ code: "ENOENT" });
    await next;
    expect(await readFile(path, "utf8")).toBe("y");
  });
});

import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import type { LockHolder } from "@loop/core";
import { testStateStore } from "@loop/test-suite";
import { formatLockHolder } from "./file-lock-holder.js";
import { createFileStateStore, type FileStateStore } from "./file-state-store.js";

// The shared StateStore conformance suite, run against real files: every store gets its own
// temporary root, and the hooks read and write the files themselves, not through the store.

/** The directory of one terminal, built here independently of the store's own path code. */
function terminalDirectory(store: FileStateStore, terminalId: string): string {
  return join(store.root, "terminals", terminalId);
}

function documentPath(store: FileStateStore, terminalId: string, key: string, backup: boolean) {
  return join(terminalDirectory(store, terminalId), backup ? `${key}.json.bak` : `${key}.json`);
}

/** Writes a lock file by hand, as another process would have. */
async function plantLock(store: FileStateStore, terminalId: string, holder: LockHolder) {
  await mkdir(terminalDirectory(store, terminalId), { recursive: true });
  const path = join(terminalDirectory(store, terminalId), ".lock");
  await writeFile(path, formatLockHolder(holder));
  return path;
}

testStateStore<FileStateStore>({
  name: "FileStateStore",
  async create() {
    const directory = await mkdtemp(join(tmpdir(), "loop-file-state-conformance-"));
    return createFileStateStore({ root: join(directory, "state") });
  },
  async inspect(store, terminalId, key, version) {
    try {
      return await readFile(documentPath(store, terminalId, key, version === "backup"), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  },
  async corrupt(store, terminalId, key, text) {
    await mkdir(terminalDirectory(store, terminalId), { recursive: true });
    await writeFile(documentPath(store, terminalId, key, false), text);
  },
  async plantStaleLock(store, terminalId, holder) {
    const path = await plantLock(store, terminalId, holder);
    // Old too, so the lock is stale even if the suite's holder named another host.
    const longAgo = new Date(Date.parse(holder.startedAt) || 0);
    await utimes(path, longAgo, longAgo);
  },
  async plantLiveLock(store, terminalId) {
    // The parent process (the test runner) is alive, and is not this process.
    const holder: LockHolder = {
      pid: process.ppid,
      host: hostname(),
      startedAt: new Date().toISOString(),
    };
    await plantLock(store, terminalId, holder);
    return holder;
  },
  async destroy(store) {
    await rm(join(store.root, ".."), { recursive: true, force: true });
  },
});

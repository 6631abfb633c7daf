import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileWatcher, type FileWatcher } from "./file-watcher.js";

/** Waits until `check` holds, or fails after `timeoutMs`. */
async function eventually(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("createFileWatcher", () => {
  let dir: string;
  let watcher: FileWatcher | undefined;
  let changes: number;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "loop-monitor-watch-"));
    changes = 0;
  });

  afterEach(async () => {
    watcher?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("sees a file replaced atomically by a rename", async () => {
    const file = join(dir, "status.json");
    await writeFile(file, "{}");
    watcher = createFileWatcher(() => {
      changes += 1;
    });
    expect(watcher.watch([file])).toBe(true);
    await writeFile(join(dir, ".status.json.tmp"), '{"a":1}');
    await rename(join(dir, ".status.json.tmp"), file);
    await eventually(() => changes > 0, "the rename to be seen");
  });

  it("ignores other entries of the watched folder", async () => {
    const file = join(dir, "status.json");
    watcher = createFileWatcher(() => {
      changes += 1;
    });
    watcher.watch([file]);
    await writeFile(join(dir, "unrelated.txt"), "x");
    await writeFile(join(dir, "other.txt"), "y");
    // A change to the watched file after the unrelated ones: once it is seen, the others
    // (made before it) would have been seen too.
    await writeFile(file, "{}");
    await eventually(() => changes > 0, "the watched file's change");
    const seen = changes;
    await writeFile(join(dir, "third.txt"), "z");
    await writeFile(file, '{"b":2}');
    await eventually(() => changes > seen, "the second change");
    // Only events naming status.json (a write gives one or two) were counted.
    expect(changes).toBeLessThanOrEqual(4);
  });

  it("watches a missing folder through its nearest existing parent, then moves down", async () => {
    const file = join(dir, "terminals", "t1", "loop_state.json");
    watcher = createFileWatcher(() => {
      changes += 1;
    });
    expect(watcher.watch([file])).toBe(true);
    await mkdir(join(dir, "terminals", "t1"), { recursive: true });
    await eventually(() => changes > 0, "the folder's creation");
    // The caller watches again after reading: the watch moves to the new folder.
    expect(watcher.watch([file])).toBe(true);
    expect(watcher.watch([file])).toBe(false);
    const seen = changes;
    await writeFile(file, "{}");
    await eventually(() => changes > seen, "the file in the new folder");
  });

  it("stops calling after close", async () => {
    const file = join(dir, "decision.log");
    watcher = createFileWatcher(() => {
      changes += 1;
    });
    watcher.watch([file]);
    watcher.close();
    await writeFile(file, "line\n");
    // A later watched change proves events were delivered in the meantime.
    let later = 0;
    const other = createFileWatcher(() => {
      later += 1;
    });
    try {
      other.watch([file]);
      await writeFile(file, "line\nline\n");
      await eventually(() => later > 0, "the other watcher's event");
    } finally {
      other.close();
    }
    expect(changes).toBe(0);
  });
});

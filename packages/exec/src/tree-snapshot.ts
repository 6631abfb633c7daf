import { type Dirent, lstatSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";

/** Folders a tree snapshot never enters: version-control data and installed dependencies. */
const SKIPPED_FOLDERS = new Set([".git", ".hg", ".svn", "node_modules"]);

/** A bounded picture of a folder's files, taken by {@link snapshotTree}. */
export interface TreeSnapshot {
  /** Each file's path (relative, `/`-separated) and fingerprint (size and modification time). */
  readonly files: ReadonlyMap<string, string>;
  /** Whether the walk stopped at its bound, so files past it are not seen. */
  readonly truncated: boolean;
}

/**
 * The fingerprint of one file: its size, modification time, mode and inode, or `missing`.
 * Writing a file changes its modification time, and replacing it (a `rename` over it, as
 * `sed -i` and atomic writes do) its inode, so an edit is seen without reading the content —
 * the inode even when the edit keeps the size and lands within the clock tick of the last one.
 *
 * Synchronous: a `stat` is answered from the system's cache in microseconds, less than the
 * thread pool's round trip, and a progress probe takes one per listed path after every run.
 *
 * @param path - the file, absolute.
 */
export function fileFingerprint(path: string): string {
  try {
    const stats = lstatSync(path);
    return `${stats.size}:${stats.mtimeMs}:${stats.mode}:${stats.ino}`;
  } catch {
    return "missing";
  }
}

/**
 * The fingerprint ({@link fileFingerprint}) of each of `paths`, relative to `top`.
 *
 * @param top - the folder the paths are relative to.
 * @param paths - `/`-separated relative paths.
 */
export function fingerprintsOf(top: string, paths: Iterable<string>): Map<string, string> {
  const prints = new Map<string, string>();
  for (const path of paths) prints.set(path, fileFingerprint(join(top, path)));
  return prints;
}

async function entriesOf(folder: string): Promise<Dirent[]> {
  try {
    return (await readdir(folder, { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  } catch {
    return [];
  }
}

/**
 * Walks `cwd` (breadth first, names sorted, symbolic links not followed, `.git` and
 * `node_modules` skipped) and fingerprints up to `maxFiles` files, for progress outside git.
 *
 * @param cwd - the folder.
 * @param excluded - paths (relative to `cwd`) to leave out: the loop's own files.
 * @param maxFiles - the bound; a larger tree is `truncated`.
 */
export async function snapshotTree(
  cwd: string,
  excluded: (path: string) => boolean,
  maxFiles: number,
): Promise<TreeSnapshot> {
  const files = new Map<string, string>();
  const queue = [""];
  let truncated = false;
  for (let next = queue.shift(); next !== undefined && !truncated; next = queue.shift()) {
    const paths: string[] = [];
    for (const entry of await entriesOf(join(cwd, next))) {
      const path = next === "" ? entry.name : `${next}/${entry.name}`;
      if (excluded(path)) continue;
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) queue.push(path);
      } else if (files.size + paths.length < maxFiles) {
        paths.push(path);
      } else {
        truncated = true;
        break;
      }
    }
    for (const path of paths) files.set(path, fileFingerprint(join(cwd, path)));
  }
  return { files, truncated };
}

import { type FSWatcher, statSync, watch } from "node:fs";
import { basename, dirname, resolve } from "node:path";

/** Watches the folders of some files; see {@link createFileWatcher}. */
export interface FileWatcher {
  /**
   * Sets the files to watch (replacing the previous ones). Folders no longer needed are
   * released, new ones watched.
   *
   * @returns whether a watch started: then the caller should read once more, since a file may
   *   have changed before the watch began.
   */
  watch(paths: readonly string[]): boolean;
  /** Stops every watch. */
  close(): void;
}

/** One watched folder. */
interface WatchedFolder {
  readonly watcher: FSWatcher;
  /** The folder's inode: a folder deleted and made again is a new one to watch. */
  readonly inode: number;
  /** The entries of the folder that matter (a watched file, or the next folder towards it). */
  names: Set<string>;
}

/** The folder's inode, or `null` when it is not an existing folder. */
function folderInode(path: string): number | null {
  try {
    const stats = statSync(path);
    return stats.isDirectory() ? stats.ino : null;
  } catch {
    return null;
  }
}

/**
 * The nearest existing folder on the way to `path`, and the entry in it that leads to `path`
 * (the file itself when its folder exists).
 */
function nearestExisting(path: string): { folder: string; name: string } {
  let name = basename(path);
  let folder = dirname(path);
  while (folderInode(folder) === null && dirname(folder) !== folder) {
    name = basename(folder);
    folder = dirname(folder);
  }
  return { folder, name };
}

/**
 * Watches files through their folders with `node:fs` `watch`: files replaced atomically (a
 * temporary file renamed over them, as the state store and `status.json` write) or rotated (the
 * decision log) would lose a watch on the file itself, while the folder's watch sees every
 * rename. An event for a watched name (or without a name) calls `onChange`; other entries of
 * the folder are ignored. A file whose folder does not exist yet is watched through the nearest
 * existing folder above it; call {@link FileWatcher.watch} again after each re-read to move
 * the watch down once the folders appear. A folder that cannot be watched (too many watches,
 * no permission) is skipped: the caller's slow fallback re-read covers it.
 *
 * @param onChange - called on every relevant event; debounce it.
 */
export function createFileWatcher(onChange: () => void): FileWatcher {
  const folders = new Map<string, WatchedFolder>();

  const stop = (folder: string) => {
    folders.get(folder)?.watcher.close();
    folders.delete(folder);
  };

  const start = (folder: string, names: Set<string>, inode: number): boolean => {
    try {
      const watcher = watch(folder, { persistent: false }, (_type, filename) => {
        const entry = folders.get(folder);
        if (filename === null || entry === undefined || entry.names.has(String(filename))) {
          onChange();
        }
      });
      watcher.on("error", () => {
        stop(folder);
        onChange();
      });
      folders.set(folder, { watcher, inode, names });
      return true;
    } catch {
      return false;
    }
  };

  return {
    watch(paths) {
      const wanted = new Map<string, Set<string>>();
      for (const path of paths) {
        const { folder, name } = nearestExisting(resolve(path));
        const names = wanted.get(folder) ?? new Set<string>();
        names.add(name);
        wanted.set(folder, names);
      }
      for (const folder of [...folders.keys()]) {
        if (!wanted.has(folder)) stop(folder);
      }
      let started = false;
      for (const [folder, names] of wanted) {
        const inode = folderInode(folder);
        const current = folders.get(folder);
        if (current !== undefined && current.inode === inode) {
          current.names = names;
          continue;
        }
        stop(folder);
        if (inode !== null) started = start(folder, names, inode) || started;
      }
      return started;
    },
    close() {
      for (const folder of [...folders.keys()]) stop(folder);
    },
  };
}

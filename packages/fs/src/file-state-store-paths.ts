import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { isSafeTerminalId, StateStoreError, type StoredVersion } from "@loop/core";

/** The seed's state root, `~/.claude/state`, used when `createFileStateStore` gets no `root`. */
export function defaultStateRoot(): string {
  return join(homedir(), ".claude", "state");
}

/**
 * The absolute state root from the `root` option: the default when absent, `~` and `~/…`
 * expanded to the home directory, anything else required to be absolute. A relative root is
 * refused rather than resolved, since its meaning would change with the working directory.
 *
 * @param root - the option as given.
 * @returns the normalised absolute root.
 * @throws {TypeError} for an empty, relative or non-string root.
 */
export function resolveStateRoot(root: unknown): string {
  if (root === undefined || root === null) return defaultStateRoot();
  if (typeof root !== "string") {
    throw new TypeError(
      `createFileStateStore: option \`root\` must be a string, got ${typeof root}`,
    );
  }
  if (root === "") {
    throw new TypeError(
      "createFileStateStore: option `root` must not be empty; leave it out for ~/.claude/state",
    );
  }
  if (root.includes("\0")) {
    throw new TypeError("createFileStateStore: option `root` must not contain a NUL character");
  }
  if (root === "~") return homedir();
  if (root.startsWith("~/") || root.startsWith(`~${sep}`)) return join(homedir(), root.slice(2));
  if (!isAbsolute(root)) {
    throw new TypeError(
      `createFileStateStore: option \`root\` must be an absolute path, got ${JSON.stringify(root)}; use path.resolve() to mean the working directory`,
    );
  }
  return resolve(root);
}

/** Longest accepted document key (the file name stays well under 255 bytes with its suffixes). */
const maximumKeyLength = 128;

/**
 * Whether `key` can name a document file safely: 1 to 128 characters from `A-Z a-z 0-9 _ -`
 * (every key matching `[a-z_]+`, as the `StateStore` contract requires, and no dots, so a key
 * never collides with a backup or temporary file name).
 *
 * @param key - the document key to check.
 */
export function isSafeDocumentKey(key: unknown): key is string {
  return (
    typeof key === "string" &&
    key.length > 0 &&
    key.length <= maximumKeyLength &&
    /^[A-Za-z0-9_-]+$/.test(key)
  );
}

/** The files of a file state store, all under `<root>/terminals/`. */
export interface StatePaths {
  /** `<root>/terminals`: nothing is ever read or written outside it. */
  readonly terminals: string;
  /** `<root>/terminals/<terminalId>`. */
  directory(terminalId: string): string;
  /** `<key>.json` (current) or `<key>.json.bak` (backup) in the terminal's directory. */
  document(terminalId: string, key: string, version: StoredVersion): string;
  /** `.lock` in the terminal's directory. */
  lock(terminalId: string): string;
}

/**
 * The path builder of a store rooted at `root`. Every path is joined from checked segments and
 * then checked again to lie inside `<root>/terminals/<terminalId>/` (defence in depth).
 *
 * @param root - the absolute state root.
 * @throws {StateStoreError} from each method for an unsafe terminal id or key.
 */
export function statePaths(root: string): StatePaths {
  const terminals = join(root, "terminals");
  const directory = (terminalId: string): string => {
    if (!isSafeTerminalId(terminalId)) {
      throw new StateStoreError({
        message: `Unsafe terminal id ${preview(terminalId)}: a terminal id is 1 to 64 characters from A-Z a-z 0-9 . _ - and does not start with "." (sanitizeTerminalId makes one from any text)`,
      });
    }
    return inside(terminals, join(terminals, terminalId), terminalId);
  };
  const file = (terminalId: string, name: string): string =>
    inside(terminals, join(directory(terminalId), name), terminalId);
  return {
    terminals,
    directory,
    document(terminalId, key, version) {
      if (!isSafeDocumentKey(key)) {
        throw new StateStoreError({
          message: `Unsafe state document key ${preview(key)}: a key is 1 to ${maximumKeyLength} characters from A-Z a-z 0-9 _ -`,
        });
      }
      return file(terminalId, version === "backup" ? `${key}.json.bak` : `${key}.json`);
    },
    lock(terminalId) {
      return file(terminalId, ".lock");
    },
  };
}

/** Returns `path` after checking it lies in `<terminals>/<terminalId>` (or is that directory). */
function inside(terminals: string, path: string, terminalId: string): string {
  const segments = relative(terminals, path).split(sep);
  if (segments[0] !== terminalId || segments.includes("..") || segments.length > 2) {
    throw new StateStoreError({
      message: `Refusing state path ${path}: it is not inside ${join(terminals, terminalId)}`,
    });
  }
  return path;
}

/** A short, printable rendering of an untrusted value for an error message. */
function preview(value: unknown): string {
  if (typeof value !== "string") return `(${value === null ? "null" : typeof value})`;
  const shown = JSON.stringify(value.length > 40 ? value.slice(0, 40) : value);
  return value.length > 40 ? `${shown}… (${value.length} characters)` : shown;
}

import { constants as fsConstants } from "node:fs";
import { type FileHandle, mkdir, open, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { errorCodeOf } from "./atomic-write-error-code.js";
import {
  type LogRotationOptions,
  type ResolvedLogRotation,
  resolveLogRotation,
  rotateLogFiles,
} from "./log-rotation.js";
import { withRotationLock } from "./log-rotation-lock.js";
import { LogWriteError } from "./log-write-error.js";
import { requirePathOption } from "./path-option.js";
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from "./private-mode.js";
import { createSerialQueue } from "./serial-queue.js";

/** Options of {@link createJsonLinesAppender}. */
export interface JsonLinesAppenderOptions extends LogRotationOptions {
  /** The log file. Its parent folders are created on the first append. */
  readonly path: string;
}

/**
 * A JSON-lines file that values are appended to, one line each, in the order given: the
 * machinery shared by the decision log and the verifier log.
 */
export interface JsonLinesAppender {
  /** The log file, as given. */
  readonly path: string;
  /**
   * Appends `value` as one JSON line. Resolves when the line is written; rejects with a
   * {@link LogWriteError} when it cannot be (the next lines are still tried), or with a
   * `TypeError` when `value` cannot be written as JSON.
   */
  append(value: unknown): Promise<void>;
  /** Resolves when every line appended so far is written (or has failed). */
  flush(): Promise<void>;
  /** Waits for the pending lines; later appends reject. Idempotent. */
  close(): Promise<void>;
}

/** The JSON line of `value`, newline included. */
function serializeLine(value: unknown, factory: string): Buffer {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new TypeError(`${factory}: the value cannot be written as JSON`, { cause: error });
  }
  if (typeof json !== "string") {
    throw new TypeError(`${factory}: the value cannot be written as JSON, got ${String(value)}`);
  }
  return Buffer.from(`${json}\n`, "utf8");
}

/**
 * How a log is opened: `O_WRONLY | O_CREAT | O_APPEND`, and `O_NOFOLLOW` — a symbolic link
 * planted at the log's path (pointing at `~/.bashrc`, say) is an `ELOOP` error, never followed.
 */
const APPEND_FLAGS =
  fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_APPEND | fsConstants.O_NOFOLLOW;

/** Opens `path` for appending (see {@link APPEND_FLAGS}), creating missing parents. */
async function openForAppend(path: string): Promise<FileHandle> {
  try {
    return await open(path, APPEND_FLAGS, PRIVATE_FILE_MODE);
  } catch (error) {
    if (errorCodeOf(error) !== "ENOENT") throw error;
    await mkdir(dirname(path), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    return await open(path, APPEND_FLAGS, PRIVATE_FILE_MODE);
  }
}

/**
 * Writes `line` with one `write` call, which on a local file system opened with `O_APPEND`
 * lands whole at the end of the file. A short write (only on a failing device) is completed
 * rather than lost.
 */
async function writeWhole(handle: FileHandle, line: Buffer): Promise<void> {
  let offset = 0;
  while (offset < line.length) {
    const { bytesWritten } = await handle.write(line, offset, line.length - offset, null);
    if (bytesWritten <= 0) throw new Error("the file system accepted no bytes");
    offset += bytesWritten;
  }
}

/** Whether appending `lineBytes` to a file of `size` bytes calls for a rotation first. */
function needsRotation(size: number, lineBytes: number, maxBytes: number): boolean {
  return size > 0 && size + lineBytes > maxBytes;
}

/**
 * Rotates `path` under its lock when, re-checked under the lock, it is still too full for the
 * line: another process may have rotated it meanwhile.
 */
async function rotateUnderLock(
  path: string,
  lineBytes: number,
  rotation: ResolvedLogRotation,
): Promise<void> {
  await withRotationLock(`${path}.lock`, async () => {
    const current = await stat(path).catch((error: unknown) => {
      if (errorCodeOf(error) === "ENOENT") return null;
      throw error;
    });
    if (current !== null && needsRotation(current.size, lineBytes, rotation.maxBytes)) {
      await rotateLogFiles(path, rotation.keep);
    }
  });
}

/** Opens `path` for appending and writes `line`. */
async function writeLine(path: string, line: Buffer): Promise<void> {
  const handle = await openForAppend(path);
  try {
    await writeWhole(handle, line);
  } finally {
    await handle.close();
  }
}

/** The last byte of the file at `path`, or `null` for an empty (or vanished) file. */
async function lastByte(path: string): Promise<number | null> {
  const reader = await open(path, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
  try {
    const { size } = await reader.stat();
    if (size === 0) return null;
    const last = Buffer.alloc(1);
    const { bytesRead } = await reader.read(last, 0, 1, size - 1);
    return bytesRead === 1 ? (last[0] ?? null) : null;
  } catch {
    return null;
  } finally {
    await reader.close();
  }
}

/**
 * Whether the log ends in a torn line: a process killed in the middle of a write left a last
 * line without its line break, which the next line must not merge with. Another process's
 * write in progress can look the same for a moment, so the end is read twice, a little apart:
 * a torn line does not change.
 */
async function endsTorn(path: string): Promise<boolean> {
  const first = await lastByte(path).catch(() => null);
  if (first === null || first === 0x0a) return false;
  const size = (await stat(path)).size;
  await new Promise((resolve) => setTimeout(resolve, TORN_LINE_RECHECK_MS));
  const again = await lastByte(path).catch(() => null);
  return again !== null && again !== 0x0a && (await stat(path)).size === size;
}

/** How long {@link endsTorn} waits before reading the log's end again. */
const TORN_LINE_RECHECK_MS = 50;

/**
 * Appends one line to `path`, rotating the log first when the line would overfill it. The
 * first line an appender writes starts with a line break when the log ends in a torn line.
 */
async function appendLine(
  path: string,
  line: Buffer,
  rotation: ResolvedLogRotation,
  first: boolean,
) {
  const whole =
    first && (await endsTorn(path).catch(() => false))
      ? Buffer.concat([Buffer.from("\n"), line])
      : line;
  const handle = await openForAppend(path);
  try {
    const full =
      Number.isFinite(rotation.maxBytes) &&
      needsRotation((await handle.stat()).size, whole.length, rotation.maxBytes);
    if (!full) {
      await writeWhole(handle, whole);
      return;
    }
  } finally {
    await handle.close();
  }
  await rotateUnderLock(path, line.length, rotation);
  await writeLine(path, line);
}

/** Wraps a failure to append in a {@link LogWriteError} naming the log. */
function toLogWriteError(path: string, error: unknown): LogWriteError {
  if (LogWriteError.isInstance(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new LogWriteError({ path, reason, cause: error });
}

/**
 * Creates the append machinery of a JSON-lines log.
 *
 * - **Order.** Lines are written one at a time, in the order `append` was called (an internal
 *   queue). A failed line rejects its own promise only.
 * - **Several processes.** The file is opened with `O_APPEND` for each line and the line is
 *   handed to the kernel in one `write` call. On a local Linux file system (ext4, xfs, btrfs,
 *   tmpfs) the kernel holds the file's lock for the whole write and moves to the end of the
 *   file under it, so lines of processes appending to the same file never interleave, at any
 *   size. POSIX promises this atomicity only for pipes up to `PIPE_BUF` (4 KiB); NFS does not
 *   keep it (the client emulates `O_APPEND`), nor may other network or FUSE file systems: keep
 *   a log shared by several processes on a local disk.
 * - **Rotation.** When a line would make the file larger than `maxBytes`, the log is rotated
 *   first (`<path>` → `<path>.1`, …, keeping `keep` files), under the lock file `<path>.lock`,
 *   and only if the size re-checked under the lock still calls for it (another process may
 *   just have rotated). A process writing while another rotates writes its line, whole, into
 *   the file it opened, now `<path>.1`: no line is lost or split, but a rotated file can end a
 *   few lines past `maxBytes`, and lines of different processes near a rotation may sit in
 *   the files out of time order.
 *
 * @param options - the file and its rotation.
 * @param factory - the public factory's name, for messages.
 * @returns the appender.
 * @throws {TypeError} when `path` is missing or a rotation option is invalid.
 */
export function createJsonLinesAppender(
  options: JsonLinesAppenderOptions,
  factory: string,
): JsonLinesAppender {
  const path = requirePathOption(options, factory);
  const rotation = resolveLogRotation(options, factory);
  const queue = createSerialQueue();
  let closed = false;
  let first = true;

  return {
    path,
    append(value: unknown): Promise<void> {
      if (closed) return Promise.reject(new LogWriteError({ path, reason: "the log is closed" }));
      let line: Buffer;
      try {
        line = serializeLine(value, factory);
      } catch (error) {
        return Promise.reject(error);
      }
      return queue.run(() => {
        const isFirst = first;
        first = false;
        return appendLine(path, line, rotation, isFirst).catch((error: unknown) => {
          throw toLogWriteError(path, error);
        });
      });
    },
    flush(): Promise<void> {
      return queue.idle();
    },
    close(): Promise<void> {
      closed = true;
      return queue.idle();
    },
  };
}

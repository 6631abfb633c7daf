import { readdir, rename, unlink } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { errorCodeOf } from "./atomic-write-error-code.js";

/** Size at which a JSON-lines log is rotated by default: 10 MiB. */
export const DEFAULT_LOG_MAX_BYTES = 10 * 1024 * 1024;

/** How many rotated files (`decision.log.1` … `.3`) are kept by default. */
export const DEFAULT_LOG_KEEP = 3;

/** Rotation settings of a JSON-lines log. */
export interface LogRotationOptions {
  /**
   * The size in bytes a log may reach: a line that would make it larger first moves the log to
   * `<path>.1`. Default 10 MiB ({@link DEFAULT_LOG_MAX_BYTES}); `Infinity` never rotates. A
   * line larger than `maxBytes` is still written whole, alone in a fresh file.
   */
  readonly maxBytes?: number | null | undefined;
  /**
   * How many rotated files to keep: `<path>.1` (newest) to `<path>.<keep>` (oldest); older
   * ones are deleted. Default 3 ({@link DEFAULT_LOG_KEEP}); 0 deletes the log when it is full.
   */
  readonly keep?: number | null | undefined;
}

/** Rotation settings with the defaults filled in. */
export interface ResolvedLogRotation {
  /** See {@link LogRotationOptions.maxBytes}. */
  readonly maxBytes: number;
  /** See {@link LogRotationOptions.keep}. */
  readonly keep: number;
}

/**
 * Checks rotation options and fills in the defaults.
 *
 * @param options - `maxBytes` and `keep` as given.
 * @param factory - the factory's name, for messages.
 * @returns the settings to use.
 * @throws {TypeError} when `maxBytes` is not a positive number or `keep` not a whole number ≥ 0.
 */
export function resolveLogRotation(
  options: LogRotationOptions | null | undefined,
  factory: string,
): ResolvedLogRotation {
  const maxBytes = options?.maxBytes ?? DEFAULT_LOG_MAX_BYTES;
  const keep = options?.keep ?? DEFAULT_LOG_KEEP;
  if (typeof maxBytes !== "number" || Number.isNaN(maxBytes) || maxBytes <= 0) {
    throw new TypeError(
      `${factory}: option \`maxBytes\` must be a positive number of bytes (or Infinity), got ${String(maxBytes)}`,
    );
  }
  if (!Number.isSafeInteger(keep) || keep < 0) {
    throw new TypeError(
      `${factory}: option \`keep\` must be a whole number of files, 0 or more, got ${String(keep)}`,
    );
  }
  return { maxBytes, keep };
}

/** The path of the `index`-th rotated file of `path`: `decision.log.2`. */
export function rotatedLogPath(path: string, index: number): string {
  return `${path}.${index}`;
}

/** Renames `from` to `to` (replacing `to`); a missing `from` is skipped. */
async function renameIfPresent(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if (errorCodeOf(error) !== "ENOENT") throw error;
  }
}

/**
 * The indexes of the rotated files of `path` that exist and that a rotation shifts (1 to
 * `keep - 1`), highest first, read from one listing of the folder.
 */
async function shiftedIndexes(path: string, keep: number): Promise<number[]> {
  const prefix = `${basename(path)}.`;
  const names = await readdir(dirname(path)).catch((error: unknown) => {
    if (errorCodeOf(error) === "ENOENT") return [];
    throw error;
  });
  return names
    .filter((name) => name.startsWith(prefix) && /^[1-9]\d*$/.test(name.slice(prefix.length)))
    .map((name) => Number(name.slice(prefix.length)))
    .filter((index) => index < keep)
    .sort((left, right) => right - left);
}

/**
 * Rotates a log: `<path>.<keep-1>` → `<path>.<keep>` (replacing the oldest), …, `<path>.1` →
 * `<path>.2`, then `<path>` → `<path>.1`. The next append creates a fresh `<path>`. With
 * `keep` 0 the log is deleted instead. Missing files are skipped; files numbered above `keep`
 * (from an earlier, larger `keep`) are left alone.
 *
 * Every step is a `rename`, so a process that has the log open keeps writing into the same
 * file under its new name: its line lands in `<path>.1`, whole, and is not lost. Run it under
 * `withRotationLock` so that two processes do not rotate the same log at once.
 *
 * @param path - the log file.
 * @param keep - how many rotated files to keep.
 */
export async function rotateLogFiles(path: string, keep: number): Promise<void> {
  if (keep === 0) {
    await unlink(path).catch((error: unknown) => {
      if (errorCodeOf(error) !== "ENOENT") throw error;
    });
    return;
  }
  for (const index of await shiftedIndexes(path, keep)) {
    await renameIfPresent(rotatedLogPath(path, index), rotatedLogPath(path, index + 1));
  }
  await renameIfPresent(path, rotatedLogPath(path, 1));
}

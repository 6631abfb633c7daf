import { isUtf8 } from "node:buffer";
import { readFile } from "node:fs/promises";
import { ConfigError, type LoopConfig, parseConfig } from "@loop/core";
import { errorCodeOf } from "./atomic-write-error-code.js";
import { ConfigNotFoundError } from "./config-not-found-error.js";
import { findInvalidUtf8 } from "./utf8-position.js";

/** Options of {@link loadConfigFile}. */
export interface LoadConfigFileOptions {
  /**
   * Whether the file may be missing: then the defaults are returned, as for an empty file
   * (a loop without `.claude/loop/config.yaml` runs on the defaults). Default `false`: a
   * missing file is a {@link ConfigNotFoundError}.
   */
  readonly optional?: boolean | undefined;
}

/**
 * Reads and validates a loop config file (`.claude/loop/config.yaml`), defaults filled in.
 * Read afresh at every call: the loop loads it at each iteration, so edits apply to the next.
 *
 * @param path - the YAML file.
 * @param options - whether the file may be missing.
 * @returns the complete config.
 * @throws {ConfigError} listing every problem as `path:line:column key.path: message` (YAML
 *   syntax, unknown or misspelt keys with the nearest valid key, invalid values).
 * @throws {ConfigNotFoundError} when the file does not exist and `optional` is not set.
 * @throws {TypeError} when `path` is not a non-empty string.
 *
 * @example
 * ```ts
 * const config = await loadConfigFile(".claude/loop/config.yaml", { optional: true });
 * config.exit_policy.min_completion_indicators; // 2 unless the file says otherwise
 * ```
 */
export async function loadConfigFile(
  path: string,
  options?: LoadConfigFileOptions | null,
): Promise<LoopConfig> {
  if (typeof path !== "string" || path === "") {
    throw new TypeError(
      `loadConfigFile: \`path\` must be a non-empty string, got ${JSON.stringify(path)}`,
    );
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if (errorCodeOf(error) !== "ENOENT") throw error;
    if (options?.optional === true) return parseConfig("", { file: path });
    throw new ConfigNotFoundError({ path, cause: error });
  }
  // Node's native check first; the byte-by-byte scan only runs to locate what is invalid.
  const invalid = isUtf8(bytes) ? null : findInvalidUtf8(bytes);
  if (invalid !== null) {
    const byte = bytes[invalid.offset]?.toString(16) ?? "";
    throw new ConfigError({
      issues: [
        {
          message: `not valid UTF-8 (byte 0x${byte}); save it as UTF-8`,
          line: invalid.line,
          column: invalid.column,
        },
      ],
      file: path,
    });
  }
  return parseConfig(bytes.toString("utf8"), { file: path });
}

import { readFileSync } from "node:fs";
import type { LoopConfig } from "@loop/core";
import { loadProjectConfig, type Project } from "../project.js";

/**
 * The `loadConfig` of `loop run`: the project's config read again before every iteration, so
 * an edit of `config.yaml` applies from the next one. A file that did not change since the last
 * read (the same bytes, or still missing) gives the same config object without parsing it
 * again, which the engine then does not resolve again either.
 *
 * @param project - the project whose config file to read.
 * @returns the loader.
 */
export function createConfigReloader(project: Project): () => Promise<LoopConfig> {
  let last: { readonly bytes: Buffer | null; readonly config: LoopConfig } | null = null;
  return async () => {
    // Synchronous: a small file from the system's cache, faster than the thread pool's round
    // trips (as filePlan's read), before every iteration.
    const bytes = readOrNull(project.configPath);
    if (last !== null && sameBytes(last.bytes, bytes)) return last.config;
    const config = await loadProjectConfig(project);
    last = { bytes, config };
    return config;
  };
}

function readOrNull(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

function sameBytes(left: Buffer | null, right: Buffer | null): boolean {
  return left === null || right === null ? left === right : left.equals(right);
}

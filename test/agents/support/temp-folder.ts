import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A temp folder for one test, removed by `remove`. */
export interface TempFolder {
  readonly path: string;
  remove(): Promise<void>;
}

/** Makes a temp folder (`loop-agents-<name>-…`). */
export async function tempFolder(name: string): Promise<TempFolder> {
  const path = await mkdtemp(join(tmpdir(), `loop-agents-${name}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

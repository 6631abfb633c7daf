import { rm } from "node:fs/promises";
import { join } from "node:path";
import { readJson, writeJsonAtomically } from "./atomic-json.js";

/**
 * Written before a conflicted merge is redone in a task's worktree for a resolver, removed once
 * the worktree is back on its branch: recovery finds a killed resolution by it, aborts the
 * merge, puts the worktree back and restores the plan copy it holds.
 * `<git common dir>/loop/resolutions/<safe id>.json`.
 */
export interface ResolutionRecord {
  /** Format version. */
  readonly version: 1;
  /** The task. */
  readonly taskId: string;
  /** Its branch, to go back to. */
  readonly branch: string;
  /** The task's worktree. */
  readonly path: string;
  /** The plan copy's text before the merge; `null` when there was none. */
  readonly planText: string | null;
}

/** The folder of the resolution records. */
export function resolutionsFolder(stateDirectory: string): string {
  return join(stateDirectory, "resolutions");
}

/** Where the resolution record of a task (by its safe id) is. */
export function resolutionPath(stateDirectory: string, safeId: string): string {
  return join(resolutionsFolder(stateDirectory), `${safeId}.json`);
}

/** Writes a resolution record, atomically. */
export async function writeResolution(
  stateDirectory: string,
  safeId: string,
  record: ResolutionRecord,
): Promise<void> {
  await writeJsonAtomically(resolutionPath(stateDirectory, safeId), record);
}

/** Reads a resolution record file; `null` when it is not one. */
export async function readResolution(path: string): Promise<ResolutionRecord | null> {
  const value = (await readJson(path)) as Partial<ResolutionRecord> | null;
  if (value === null || value.version !== 1) return null;
  if (typeof value.branch !== "string" || typeof value.path !== "string") return null;
  return value as ResolutionRecord;
}

/** Removes a task's resolution record. */
export async function clearResolution(stateDirectory: string, safeId: string): Promise<void> {
  await rm(resolutionPath(stateDirectory, safeId), { force: true });
}

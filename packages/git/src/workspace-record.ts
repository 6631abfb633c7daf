import { readdir, rm } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { readJson, temporarySuffix, writeJsonAtomically } from "./atomic-json.js";

/**
 * What is left to do when a record says its workspace is being closed: the worktree goes, then
 * the branch is kept (`keep`), deleted (`delete`), or kept only when it holds commits beyond
 * the main line (`keep-if-work`, recovery's own closing).
 */
export type ClosingIntent = "keep" | "delete" | "keep-if-work";

/**
 * The record of one task branch (active or kept): what the branch name alone cannot say. One
 * JSON file per branch, `<git common dir>/loop/workspaces/<branch>.json`, written atomically
 * before the branch is created or renamed, so every branch the workspaces made has one.
 */
export interface WorkspaceRecord {
  /** Format version. */
  readonly version: 1;
  /** The exact task id. */
  readonly taskId: string;
  /** The task's title when it was opened. */
  readonly title: string;
  /** The branch this record describes. */
  readonly branch: string;
  /** The commit the work started from: the plan file on the branch stays as it is there. */
  readonly base: string;
  /** When the workspace was opened, epoch milliseconds. */
  readonly createdAt: number;
  /** When the work was kept (kept branches only). */
  readonly keptAt?: number | undefined;
  /** Set just before the worktree is removed; recovery finishes what it says. */
  readonly closing?: ClosingIntent | undefined;
}

/** The folder of the records. */
export function recordsFolder(stateDirectory: string): string {
  return join(stateDirectory, "workspaces");
}

/** Where the record of `branch` is kept. */
export function recordPath(stateDirectory: string, branch: string): string {
  return `${join(recordsFolder(stateDirectory), ...branch.split("/"))}.json`;
}

/** Whether a parsed JSON value is a record. */
function isRecord(value: unknown): value is WorkspaceRecord {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Partial<WorkspaceRecord>;
  return (
    record.version === 1 &&
    typeof record.taskId === "string" &&
    typeof record.title === "string" &&
    typeof record.branch === "string" &&
    typeof record.base === "string" &&
    typeof record.createdAt === "number"
  );
}

/** The record of `branch`; `null` when there is none (or it is unreadable). */
export async function readRecord(
  stateDirectory: string,
  branch: string,
): Promise<WorkspaceRecord | null> {
  const value = await readJson(recordPath(stateDirectory, branch));
  return isRecord(value) && value.branch === branch ? value : null;
}

/** Writes (or replaces) a record, atomically. */
export async function writeRecord(stateDirectory: string, record: WorkspaceRecord): Promise<void> {
  await writeJsonAtomically(recordPath(stateDirectory, record.branch), record);
}

/** Deletes the record of `branch`, if any. */
export async function deleteRecord(stateDirectory: string, branch: string): Promise<void> {
  await rm(recordPath(stateDirectory, branch), { force: true });
}

/** Every record, and removes temporary files left by writers that were killed. */
export async function listRecords(stateDirectory: string): Promise<WorkspaceRecord[]> {
  const folder = recordsFolder(stateDirectory);
  let entries: string[];
  try {
    entries = await readdir(folder, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const records: WorkspaceRecord[] = [];
  for (const entry of entries.sort()) {
    const path = join(folder, entry);
    if (entry.endsWith(temporarySuffix)) {
      await rm(path, { force: true });
      continue;
    }
    if (!entry.endsWith(".json")) continue;
    const branch = relative(folder, path).slice(0, -".json".length).split(sep).join("/");
    const record = await readRecord(stateDirectory, branch);
    if (record !== null) records.push(record);
  }
  return records;
}

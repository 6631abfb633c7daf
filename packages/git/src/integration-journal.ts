import { rm } from "node:fs/promises";
import { join } from "node:path";
import { readJson, writeJsonAtomically } from "./atomic-json.js";

/**
 * The "integration in progress" journal: written (after the backup ref) before the main
 * working tree is touched, removed once it is at the merge. A journal found at start-up means
 * a run was killed while the main working tree was being brought to `target`.
 * `<git common dir>/loop/integration.json`.
 */
export interface IntegrationJournal {
  /** Format version. */
  readonly version: 1;
  /** The task being integrated. */
  readonly taskId: string;
  /** Its branch. */
  readonly branch: string;
  /** The backup ref holding `backup`. */
  readonly backupRef: string;
  /** The main line's commit before the integration. */
  readonly backup: string;
  /** The merge commit the main line is being moved to. */
  readonly target: string;
  /** When the integration started, epoch milliseconds. */
  readonly startedAt: number;
}

/** Where the journal is. */
export function journalPath(stateDirectory: string): string {
  return join(stateDirectory, "integration.json");
}

/** The journal; `null` when no integration is in progress. */
export async function readJournal(stateDirectory: string): Promise<IntegrationJournal | null> {
  const value = (await readJson(journalPath(stateDirectory))) as Partial<IntegrationJournal> | null;
  if (value === null || value.version !== 1) return null;
  if (typeof value.backup !== "string" || typeof value.target !== "string") return null;
  return value as IntegrationJournal;
}

/** Writes the journal, atomically. */
export async function writeJournal(
  stateDirectory: string,
  journal: IntegrationJournal,
): Promise<void> {
  await writeJsonAtomically(journalPath(stateDirectory), journal);
}

/** Clears the journal. */
export async function clearJournal(stateDirectory: string): Promise<void> {
  await rm(journalPath(stateDirectory), { force: true });
}

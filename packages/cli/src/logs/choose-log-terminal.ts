import { isSafeTerminalId } from "@loop/core";
import { listIterationLogs, listIterationLogTerminals } from "@loop/fs";
import { readStatus } from "../loop-snapshot.js";
import type { Project } from "../project.js";

/**
 * The terminal whose iteration logs `loop logs` shows: `--terminal-id` (or `LOOP_TERMINAL_ID`)
 * when given; else this terminal when it has logs; else the terminal `status.json` names (a
 * loop running in another terminal of this project) when it has logs; else the terminal whose
 * newest log is the newest; else this terminal (which has none).
 *
 * @param project - the project.
 * @param folder - the iteration logs' folder, absolute (`logging.iteration_logs`).
 */
export async function chooseLogTerminal(project: Project, folder: string): Promise<string> {
  if (project.terminalGiven) return project.terminalId;
  const hasLogs = async (terminalId: string) =>
    (await listIterationLogs({ folder, terminalId })).length > 0;
  if (await hasLogs(project.terminalId)) return project.terminalId;
  const status = await readStatus(project, []);
  const named = status?.terminal_id;
  if (named !== undefined && isSafeTerminalId(named) && (await hasLogs(named))) return named;
  let latest: { terminalId: string; at: number } | null = null;
  for (const terminalId of await listIterationLogTerminals(folder)) {
    const newest = (await listIterationLogs({ folder, terminalId })).at(-1);
    if (newest !== undefined && (latest === null || newest.startedAt > latest.at)) {
      latest = { terminalId, at: newest.startedAt };
    }
  }
  return latest?.terminalId ?? project.terminalId;
}

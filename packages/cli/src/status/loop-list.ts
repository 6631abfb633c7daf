import { dirname, sep } from "node:path";
import {
  createStateManager,
  type DecisionEvent,
  type LoopConfig,
  type LoopState,
} from "@loop/core";
import type { LockHolderReport } from "@loop/fs";
import { errorMessage } from "../error-message.js";
import type { Project } from "../project.js";

/** One loop of `loop status --all`. */
export interface LoopListRow {
  /** Its terminal. */
  readonly terminalId: string;
  /** The project folder its plan is in (the folder above `.claude/`, else the plan's folder); `null` when unknown. */
  readonly project: string | null;
  /** Its plan, as the state records it. */
  readonly planPath: string | null;
  /** The machine whose loop holds the terminal now; `null` when none does. */
  readonly host: string | null;
  /** Its state, `null` when it cannot be read (see `problem`). */
  readonly state: LoopState | null;
  /** Who holds the terminal's lock, and whether it lives. */
  readonly lock: LockHolderReport | null;
  /** Its latest decision event, `null` when none is known. */
  readonly lastEvent: DecisionEvent | null;
  /** What could not be read, `null` when all could. */
  readonly problem: string | null;
}

const SETTINGS_FOLDER = `${sep}.claude${sep}`;

/** The project a plan path belongs to: the folder holding `.claude/` when it is inside one. */
export function projectOfPlan(planPath: string): string | null {
  if (planPath === "") return null;
  const settings = planPath.indexOf(SETTINGS_FOLDER);
  return settings > 0 ? planPath.slice(0, settings) : dirname(planPath);
}

/**
 * Every loop the project's store knows — every project's, in a database a fleet shares; the
 * state root's, for files — with its lock and latest decision event, by terminal id. Ids that
 * hold only a lock (a plan's or a project's) are not loops and are left out. Nothing throws for
 * one unreadable loop: its row says what went wrong.
 *
 * @param project - the project whose store to read.
 * @param config - its config (the decision log, for files).
 */
export async function readLoopList(project: Project, config: LoopConfig): Promise<LoopListRow[]> {
  const manager = createStateManager(project.store);
  const decisionLog = project.resolve(config.logging.decision_log);
  const rows: LoopListRow[] = [];
  for (const terminalId of await project.store.terminals()) {
    const problems: string[] = [];
    const note = (error: unknown) => {
      problems.push(errorMessage(error));
      return null;
    };
    const read = await manager.readState(terminalId, { repair: false }).catch(note);
    if (read !== null && read.state === null && read.recovery === null) continue;
    if (read?.recovery) problems.push(read.recovery.problem);
    const state = read?.state ?? null;
    const [lock, events] = await Promise.all([
      project.backend.lockHolder(terminalId).catch(note),
      project.backend.lastEvents(terminalId, 1, decisionLog).catch(note),
    ]);
    const planPath = state?.loop_metadata.plan_path || null;
    rows.push({
      terminalId,
      project: planPath === null ? null : projectOfPlan(planPath),
      planPath,
      host: lock?.holder?.host ?? null,
      state,
      lock,
      lastEvent: events?.at(-1) ?? null,
      problem: problems.length === 0 ? null : problems.join("; "),
    });
  }
  return rows;
}

import { readFile } from "node:fs/promises";
import {
  createStateManager,
  type DecisionEvent,
  type LoopConfig,
  type LoopMetrics,
  type LoopState,
  parsePlan,
  parsePrd,
  readMetrics,
  storyTasks,
} from "@loop/core";
import { createStatusFile, type LockHolderReport, type Status } from "@loop/fs";
import { errorMessage } from "./error-message.js";
import { type Project, STATUS_FILE_PATH } from "./project.js";
import { belongsToProject } from "./state/belongs-to-project.js";

/**
 * How `loop status` and `loop monitor` read state: never repairing it (a corrupt document and
 * its backup stay as they are; the loop recovers them, once, when it starts).
 */
const READ_ONLY = { repair: false } as const;

/** A plan's progress, as `loop status` and `loop monitor` show it. */
export interface PlanProgress {
  /** The plan file. */
  readonly path: string;
  /** Tasks (or stories) done. */
  readonly done: number;
  /** Tasks (or stories) in all. */
  readonly total: number;
  /** Each task, in plan order. */
  readonly tasks: readonly {
    readonly id: string;
    readonly title: string;
    readonly done: boolean;
  }[];
}

/** Everything known about one terminal's loop, read from the state, logs and status file. */
export interface LoopSnapshot {
  /** The terminal shown. */
  readonly terminalId: string;
  /** Its `loop_state`, `null` when it has none. */
  readonly state: LoopState | null;
  /** Its `loop_metrics`, `null` when none or unreadable. */
  readonly metrics: LoopMetrics | null;
  /** `status.json`, when it belongs to this terminal (or names none). */
  readonly status: Status | null;
  /** Its last decision events, oldest first. */
  readonly events: readonly DecisionEvent[];
  /** The plan's progress, `null` when the plan cannot be read. */
  readonly progress: PlanProgress | null;
  /**
   * Who holds the terminal's lock and whether that process lives: tells a running loop from one
   * that crashed (`kill -9`) or stopped without exiting. `null` when no lock is held.
   */
  readonly lock: LockHolderReport | null;
  /** What could not be read, one line each (shown, never fatal). */
  readonly problems: readonly string[];
}

/** `status.json`, or `null` with a problem noted when it cannot be read. */
export async function readStatus(project: Project, problems: string[]): Promise<Status | null> {
  try {
    return await createStatusFile({ path: project.resolve(STATUS_FILE_PATH) }).read();
  } catch (error) {
    problems.push(errorMessage(error));
    return null;
  }
}

/**
 * The terminal to show: `--terminal-id` (or `LOOP_TERMINAL_ID`) when given; else this
 * terminal when it has a state; else the terminal `status.json` names (the loop running in
 * another terminal of this project); else the one whose state was updated last (in a
 * database, of the terminals whose plan is in this project).
 */
export async function chooseTerminal(project: Project, status: Status | null): Promise<string> {
  if (project.terminalGiven) return project.terminalId;
  const manager = createStateManager(project.store);
  const own = await manager.readState(project.terminalId, READ_ONLY).catch(() => null);
  if (own?.state) return project.terminalId;
  if (status?.terminal_id) return status.terminal_id;
  let latest: { id: string; at: number } | null = null;
  for (const id of await project.store.terminals().catch(() => [])) {
    const read = await manager.readState(id, READ_ONLY).catch(() => null);
    // A database holds every project's terminals: only this project's are candidates.
    const plan = read?.state?.loop_metadata.plan_path ?? "";
    if (project.stateRoot === null && !belongsToProject(plan, project.cwd)) continue;
    const at = Date.parse(read?.state?.loop_metadata.last_update ?? "");
    if (!Number.isNaN(at) && (latest === null || at > latest.at)) latest = { id, at };
  }
  return latest?.id ?? project.terminalId;
}

async function readProgress(
  project: Project,
  path: string,
  config: LoopConfig,
): Promise<PlanProgress> {
  const absolute = project.resolve(path);
  const text = await readFile(absolute, "utf8");
  const tasks = absolute.toLowerCase().endsWith(".json")
    ? storyTasks(parsePrd(text, { file: path }))
    : parsePlan(text, { file: path, optionalHeadings: config.plans.optional_headings }).tasks;
  return {
    path: absolute,
    done: tasks.filter((task) => task.done).length,
    total: tasks.length,
    tasks: tasks.map(({ id, title, done }) => ({ id, title, done })),
  };
}

/**
 * Reads one terminal's loop: state, metrics, `status.json`, the last `eventCount` decision
 * events and the plan's progress. Nothing here throws for a missing or broken file: each
 * problem is listed in `problems`.
 */
export async function readLoopSnapshot(
  project: Project,
  config: LoopConfig,
  options: { readonly terminalId?: string | undefined; readonly eventCount: number },
): Promise<LoopSnapshot> {
  const problems: string[] = [];
  const fileStatus = await readStatus(project, problems);
  const terminalId = options.terminalId ?? (await chooseTerminal(project, fileStatus));
  const status =
    fileStatus && (fileStatus.terminal_id === undefined || fileStatus.terminal_id === terminalId)
      ? fileStatus
      : null;
  let state: LoopState | null = null;
  try {
    state = (await createStateManager(project.store).readState(terminalId, READ_ONLY)).state;
  } catch (error) {
    problems.push(errorMessage(error));
  }
  const metrics = await readMetrics(project.store, terminalId, {
    onError: (error) => problems.push(errorMessage(error)),
  });
  let events: DecisionEvent[] = [];
  try {
    events = await project.backend.lastEvents(
      terminalId,
      options.eventCount,
      project.resolve(config.logging.decision_log),
    );
  } catch (error) {
    problems.push(errorMessage(error));
  }
  const planPath = state?.loop_metadata.plan_path || status?.plan_path || config.plans.default_plan;
  let progress: PlanProgress | null = null;
  try {
    progress = await readProgress(project, planPath, config);
  } catch (error) {
    problems.push(errorMessage(error));
  }
  const lock = await project.backend.lockHolder(terminalId).catch((error: unknown) => {
    problems.push(errorMessage(error));
    return null;
  });
  return { terminalId, state, metrics, status, events, progress, lock, problems };
}

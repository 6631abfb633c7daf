import { open, readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { isSafeTerminalId } from "@loop/core";
import { errorCodeOf } from "./atomic-write-error-code.js";
import { parseIterationLogHeader } from "./iteration-log-format.js";
import { parseIterationLogName } from "./iteration-log-name.js";

/** How much of the start of a log is read for its header. */
const HEADER_BYTES = 16 * 1024;

/** One iteration log on disk, with what its name and header say. */
export interface IterationLogFile {
  /** The file, absolute. */
  readonly path: string;
  /** Its name (`20260314T100000Z-000012-TASK-003.log`). */
  readonly name: string;
  /** The terminal whose folder holds it. */
  readonly terminalId: string;
  /** The iteration number. */
  readonly iteration: number;
  /** `task`, or `wrap_up`. */
  readonly kind: "task" | "wrap_up";
  /** The task's id (the header's, whole); `null` for a wrap-up. */
  readonly taskId: string | null;
  /** When the iteration started, epoch milliseconds. */
  readonly startedAt: number;
  /** When it ended, epoch milliseconds; `null` when the header does not say. */
  readonly endedAt: number | null;
  /** Whether the agent's run succeeded; `null` when the header does not say. */
  readonly success: boolean | null;
  /** The run's cost in US dollars; `null` when unknown. */
  readonly costUsd: number | null;
  /** The run's error; `null` when none (or unknown). */
  readonly error: string | null;
}

/** Options of {@link listIterationLogs}. */
export interface ListIterationLogsOptions {
  /** The folder of every terminal's iteration logs (`logging.iteration_logs`). */
  readonly folder: string;
  /** The terminal whose logs to list. */
  readonly terminalId: string;
}

/** The entries of a folder; none when it does not exist. */
async function entries(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch (error) {
    const code = errorCodeOf(error);
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw error;
  }
}

/** The first {@link HEADER_BYTES} of a file as text; `""` when it has gone meanwhile. */
async function readStart(path: string): Promise<string> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, "r");
  } catch (error) {
    if (errorCodeOf(error) === "ENOENT") return "";
    throw error;
  }
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await file.read(buffer, 0, HEADER_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await file.close();
  }
}

function numberOf(text: string | undefined): number | null {
  if (text === undefined || text === "unknown") return null;
  const number = Number(text);
  return text.trim() !== "" && Number.isFinite(number) ? number : null;
}

function timeOf(text: string | undefined): number | null {
  const time = Date.parse(text ?? "");
  return Number.isNaN(time) ? null : time;
}

async function describe(folder: string, terminalId: string, name: string) {
  const fromName = parseIterationLogName(name);
  if (fromName === null) return null;
  const path = join(folder, name);
  const header = parseIterationLogHeader(await readStart(path)) ?? new Map<string, string>();
  const kind = header.get("kind") === "wrap_up" || fromName.task === null ? "wrap_up" : "task";
  const task = header.get("task");
  const success = header.get("success");
  const error = header.get("error");
  const file: IterationLogFile = {
    path,
    name,
    terminalId,
    iteration: numberOf(header.get("iteration")) ?? fromName.iteration,
    kind,
    taskId: kind === "wrap_up" ? null : (task ?? fromName.task),
    startedAt: timeOf(header.get("started_at")) ?? fromName.startedAt,
    endedAt: timeOf(header.get("ended_at")),
    success: success === "true" ? true : success === "false" ? false : null,
    costUsd: numberOf(header.get("cost_usd")),
    error: error === undefined || error === "none" ? null : error,
  };
  return file;
}

/**
 * One terminal's iteration logs, oldest first (by name: by start time). Only files named as
 * `createIterationLog` names them count; each one's header is read for the task, times, success,
 * cost and error (a file whose header cannot be read still lists, with what its name says).
 *
 * @param options - the logs' folder and the terminal.
 * @returns the logs; none when the terminal has no folder yet.
 */
export async function listIterationLogs(
  options: ListIterationLogsOptions,
): Promise<IterationLogFile[]> {
  const folder = resolve(options.folder, options.terminalId);
  const names = (await entries(folder)).sort();
  const files: IterationLogFile[] = [];
  for (const name of names) {
    const file = await describe(folder, options.terminalId, name);
    if (file !== null) files.push(file);
  }
  return files;
}

/**
 * The terminals that have a folder of iteration logs, sorted.
 *
 * @param folder - the folder of every terminal's iteration logs (`logging.iteration_logs`).
 * @returns their ids; none when the folder does not exist.
 */
export async function listIterationLogTerminals(folder: string): Promise<string[]> {
  try {
    const found = await readdir(resolve(folder), { withFileTypes: true });
    return found
      .filter((entry) => entry.isDirectory() && isSafeTerminalId(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    const code = errorCodeOf(error);
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw error;
  }
}

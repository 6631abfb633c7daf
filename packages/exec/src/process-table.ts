import { readdirSync, readFileSync } from "node:fs";

/** One process as Linux's `/proc/<pid>/stat` shows it. */
export interface ProcessEntry {
  /** Its process id. */
  readonly pid: number;
  /** Its process group id. */
  readonly pgid: number;
  /** Its start time after boot, in clock ticks, as written (a pid reused later starts later). */
  readonly startTicks: string;
  /** Whether it has ended and only waits to be reaped (a zombie): nothing to stop. */
  readonly ended: boolean;
}

/** Whether this host has Linux's `/proc`, where processes are read from. */
export const hasProcTable = process.platform === "linux";

let bootId: string | null | undefined;

/** This boot's id (`/proc/sys/kernel/random/boot_id`), `null` when it cannot be read. */
function currentBootId(): string | null {
  if (bootId === undefined) {
    try {
      bootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || null;
    } catch {
      bootId = null;
    }
  }
  return bootId;
}

/**
 * Reads one process from `/proc/<pid>/stat`; `null` when it does not exist (or not on Linux).
 * The command name, in parentheses, may hold spaces and parentheses: fields are counted from
 * the last `)`.
 *
 * @param pid - the process id.
 */
export function readProcess(pid: number): ProcessEntry | null {
  if (!hasProcTable) return null;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // Fields from the 3rd on: state, ppid, pgrp, session, …, starttime (the 22nd).
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0] ?? "";
  const pgid = Number(fields[2]);
  const startTicks = fields[19] ?? "";
  if (!Number.isInteger(pgid) || startTicks === "") return null;
  return { pid, pgid, startTicks, ended: state === "Z" || state === "X" };
}

/** Every process of this host that has not ended (Linux; none elsewhere). */
export function listProcesses(): ProcessEntry[] {
  if (!hasProcTable) return [];
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const entries: ProcessEntry[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const entry = readProcess(Number(name));
    if (entry !== null && !entry.ended) entries.push(entry);
  }
  return entries;
}

/**
 * What identifies a process beyond its pid: `linux:<boot id>:<start ticks>`. A pid given to
 * another process later (or after a reboot) never has the same. `undefined` when it cannot be
 * read (the process is gone, or not on Linux).
 *
 * @param pid - the process id.
 */
export function processStartOf(pid: number): string | undefined {
  const boot = currentBootId();
  const entry = readProcess(pid);
  if (boot === null || entry === null) return undefined;
  return `linux:${boot}:${entry.startTicks}`;
}

/** {@link processStartOf} of an entry already read. */
export function processStartOfEntry(entry: ProcessEntry): string | undefined {
  const boot = currentBootId();
  return boot === null ? undefined : `linux:${boot}:${entry.startTicks}`;
}

/**
 * Whether a process's environment (as it was started: `/proc/<pid>/environ`) holds `entry`
 * (`NAME=value`) exactly. `false` when it cannot be read (another user's process, or gone).
 *
 * @param pid - the process id.
 * @param entry - the whole `NAME=value` entry.
 */
export function environmentHolds(pid: number, entry: string): boolean {
  let environment: Buffer;
  try {
    environment = readFileSync(`/proc/${pid}/environ`);
  } catch {
    return false;
  }
  const wanted = Buffer.from(`${entry}\0`);
  if (environment.subarray(0, wanted.length).equals(wanted)) return true;
  return environment.includes(Buffer.concat([Buffer.from("\0"), wanted]));
}

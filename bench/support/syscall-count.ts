import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";

// Counts what a whole process tree does, by strace: the programs it executes, and the traced
// process's own fsyncs and renames (each atomic file write ends in one), each by the file's name
// (those of the programs it starts, git and the agent, are left out).

/** What {@link countSyscalls} saw. */
export interface SyscallCounts {
  /** Successful executions, by program name (`git`, `sh`, `node`…). */
  readonly executions: ReadonlyMap<string, number>;
  /** The traced process's fsync and fdatasync calls, by the name of the file or folder flushed. */
  readonly fsyncs: ReadonlyMap<string, number>;
  /** The traced process's renames, by the name of the file renamed to. */
  readonly renames: ReadonlyMap<string, number>;
}

/** Whether strace can trace here (installed, and ptrace allowed). */
export function straceWorks(): boolean {
  const run = spawnSync("strace", ["-f", "-qq", "-e", "trace=none", "true"], { stdio: "ignore" });
  return run.status === 0;
}

function add(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/**
 * A file's name with what differs between runs taken out: an atomic write's temporary file
 * (`.status.json.<pid>.<hex>.tmp`) is `status.json (temporary)`, an iteration log is
 * `iteration log`, a lock's folder (`plan-<hash>`) is `plan-…`.
 */
export function nameOf(path: string): string {
  const name = basename(path);
  const temporary = /^\.(.*)\.\d+\.[0-9a-f]{12}\.tmp$/.exec(name);
  if (temporary !== null) return `${nameOf(temporary[1] ?? "")} (temporary)`;
  if (/^\d{8}T\d{6}Z-\d+-.*\.log$/.test(name)) return "iteration log";
  return name.replace(/^(project|plan)-[0-9a-f]{16}$/, "$1-…");
}

/** Runs `command args…` under `strace -f` and counts its executions, fsyncs and renames. */
export function countSyscalls(
  command: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env: Record<string, string> },
): SyscallCounts {
  const folder = mkdtempSync(join(tmpdir(), "loop-bench-strace-"));
  const log = join(folder, "trace");
  try {
    execFileSync(
      "strace",
      [
        "-f",
        "-qq",
        "-y",
        "-o",
        log,
        "-e",
        "trace=execve,fsync,fdatasync,rename,renameat,renameat2",
        command,
        ...args,
      ],
      { cwd: options.cwd, env: options.env, stdio: "ignore" },
    );
  } catch {
    // The loop's own exit code (3: stopped before complete) is not a failure of the count.
  }
  try {
    return parseTrace(readFileSync(log, "utf8"));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function parseTrace(text: string): SyscallCounts {
  const executions = new Map<string, number>();
  const fsyncs = new Map<string, number>();
  const renames = new Map<string, number>();
  /** A call strace split in two (`<unfinished ...>`), by pid: its first half. */
  const pending = new Map<string, string>();
  /** The traced process (the first pid), and the processes that became other programs. */
  let traced: string | null = null;
  const others = new Set<string>();
  for (const raw of text.split("\n")) {
    const match = /^(\d+)\s+(.*)$/.exec(raw);
    if (match === null) continue;
    const [, pid = "", rest = ""] = match;
    traced ??= pid;
    let line = rest;
    if (line.endsWith("<unfinished ...>")) {
      pending.set(pid, line.slice(0, -"<unfinished ...>".length));
      continue;
    }
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(line);
    if (resumed !== null) {
      line = (pending.get(pid) ?? "") + (resumed[1] ?? "");
      pending.delete(pid);
    }
    if (!/\)\s+= 0$/.test(line)) continue;
    const exec = /^execve\("([^"]*)"/.exec(line);
    if (exec !== null) {
      add(executions, nameOf(exec[1] ?? ""));
      if (pid !== traced) others.add(pid);
      continue;
    }
    // fsyncs and renames of git and the agent (git's index, sed -i's plan) are not the loop's.
    if (others.has(pid)) continue;
    const sync = /^f(?:data)?sync\(\d+<([^>]*)>/.exec(line);
    if (sync !== null) {
      add(fsyncs, nameOf(sync[1] ?? ""));
      continue;
    }
    const rename = /^rename(?:at2?)?\(.*"([^"]*)"(?:, \w+)?\)\s+= 0$/.exec(line);
    if (rename !== null) add(renames, nameOf(rename[1] ?? ""));
  }
  return { executions, fsyncs, renames };
}

/** The sum of a map's counts. */
export function total(map: ReadonlyMap<string, number>): number {
  let sum = 0;
  for (const value of map.values()) sum += value;
  return sum;
}

/** `a − b`, key by key (keys of either). */
export function difference(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
): Map<string, number> {
  const result = new Map<string, number>();
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const value = (a.get(key) ?? 0) - (b.get(key) ?? 0);
    if (value !== 0) result.set(key, value);
  }
  return result;
}

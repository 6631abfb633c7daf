import { readFileSync } from "node:fs";

/**
 * The fields of Linux's `/proc/<pid>/stat` from the state (the 3rd field) on, counted from the
 * last `)` since the command name may hold spaces and parentheses: `[0]` the state, `[2]` the
 * process group, `[19]` the start time. `null` when the process is gone (or not on Linux).
 */
export function statFields(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

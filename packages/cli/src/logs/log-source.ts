import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { type IterationLogFile, listIterationLogs } from "@loop/fs";
import { logsOfTask } from "./select-log.js";

/** Options of {@link createLogSource}. */
export interface LogSourceOptions {
  /** The iteration logs' folder, absolute. */
  readonly folder: string;
  /** The terminal to read, asked at each look (it may change until a log is found). */
  readonly terminal: () => Promise<string>;
  /** `--task`: only that task's logs. */
  readonly task?: string | undefined;
}

/**
 * The logs `loop logs --follow` looks at, read again only when the terminal's folder changed:
 * each look lists the folder, and reads the logs' headers only when a file came or went.
 *
 * @param options - the folder, the terminal and the task.
 * @returns a function that gives the logs, oldest first.
 */
export function createLogSource(
  options: LogSourceOptions,
): () => Promise<readonly IterationLogFile[]> {
  let listing: string | null = null;
  let logs: readonly IterationLogFile[] = [];
  return async () => {
    const terminalId = await options.terminal();
    const names = await readdir(join(options.folder, terminalId)).catch(() => []);
    const next = [terminalId, ...names.sort()].join("\n");
    if (next !== listing) {
      listing = next;
      logs = logsOfTask(
        await listIterationLogs({ folder: options.folder, terminalId }),
        options.task,
      );
    }
    return logs;
  };
}

import { join } from "node:path";
import { atomicWriteFile } from "@loop/fs";
import { STATE_DIR_PATH, STATUS_FILE_PATH } from "../project.js";
import { readTextIfExists } from "../read-if-exists.js";
import { LOGS_FOLDER_PATH } from "../run/loop-files.js";

/** The heading of the block `loop init` adds to `.gitignore`. */
const HEADING = "# The loop's own files: its state, logs and status (written by `loop init`)";

/**
 * The `.gitignore` patterns of what `loop run` writes in a project: its state, its logs (the
 * decision log, verifier log and iteration logs) and `status.json` with the temporary files
 * it is written through. Anchored to the project folder.
 */
export const LOOP_IGNORE_PATTERNS: readonly string[] = [
  `/${STATE_DIR_PATH}/`,
  `/${LOGS_FOLDER_PATH}/`,
  `/${STATUS_FILE_PATH}`,
  "/.claude/loop/.status.json.*.tmp",
];

/** A `.gitignore` line as git compares it: trimmed, without a leading `/`. */
function normalized(line: string): string {
  const trimmed = line.trim();
  return trimmed.startsWith("/") ? trimmed.slice(1) : trimmed;
}

/** What {@link ignoreLoopFiles} did to `.gitignore`. */
export interface IgnoreOutcome {
  /** The `.gitignore`, absolute. */
  readonly path: string;
  /** `created`, `updated` (patterns appended) or `unchanged` (every pattern was there). */
  readonly outcome: "created" | "updated" | "unchanged";
  /** The patterns added. */
  readonly added: readonly string[];
}

/**
 * Adds the patterns of the loop's own files ({@link LOOP_IGNORE_PATTERNS}) to the project's
 * `.gitignore`, keeping every line it has and adding only the missing ones, once. Git then
 * neither shows them as changes nor lets a commit take them.
 *
 * @param cwd - the project folder.
 * @returns what was done.
 * @throws the Node.js system error when `.gitignore` cannot be read or written.
 */
export async function ignoreLoopFiles(cwd: string): Promise<IgnoreOutcome> {
  const path = join(cwd, ".gitignore");
  const text = await readTextIfExists(path);
  const present = new Set((text ?? "").split(/\r?\n/).map(normalized));
  const added = LOOP_IGNORE_PATTERNS.filter((pattern) => !present.has(normalized(pattern)));
  if (added.length === 0) return { path, outcome: "unchanged", added };
  const before =
    text === null || text === "" ? "" : text.endsWith("\n") ? `${text}\n` : `${text}\n\n`;
  await atomicWriteFile(path, `${before}${HEADING}\n${added.join("\n")}\n`);
  return { path, outcome: text === null ? "created" : "updated", added };
}

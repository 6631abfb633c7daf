import type { StopHookOptions } from "@loop/claude";
import { atomicWriteFile } from "@loop/fs";
import { readTextIfExists } from "../read-if-exists.js";

/**
 * The file access `handleStopHook` needs, on the real file system: `readFile` gives `null` for
 * a missing file (the agent deleted the state file to end the loop) and throws any other
 * error; `writeFile` replaces the state file atomically, so Claude Code or the agent reading it
 * at the same instant sees the old text or the new, never half of it.
 */
export const HOOK_FILES: Pick<StopHookOptions, "readFile" | "writeFile"> = {
  readFile: readTextIfExists,
  writeFile: (path, text) => atomicWriteFile(path, text),
};

import { readFile } from "node:fs/promises";
import type { StopHookOptions } from "@loop/claude";
import { atomicWriteFile } from "@loop/fs";

/**
 * The file access `handleStopHook` needs, on the real file system: `readFile` gives `null` for
 * a missing file (the agent deleted the state file to end the loop) and throws any other
 * error; `writeFile` replaces the state file atomically, so Claude Code or the agent reading it
 * at the same instant sees the old text or the new, never half of it.
 */
export const HOOK_FILES: Pick<StopHookOptions, "readFile" | "writeFile"> = {
  readFile: async (path) => {
    try {
      return await readFile(path, "utf8");
    } catch (error) {
      if ((error as { code?: unknown }).code === "ENOENT") return null;
      throw error;
    }
  },
  writeFile: (path, text) => atomicWriteFile(path, text),
};

import { homedir } from "node:os";
import type { CliIo } from "./cli-io.js";

/**
 * The user's home folder as the CLI sees it: `HOME` from the CLI's environment (a test's, a
 * hook's), else the system's.
 *
 * @param io - the CLI's environment.
 */
export function homeFolder(io: CliIo): string {
  return io.env.HOME !== undefined && io.env.HOME !== "" ? io.env.HOME : homedir();
}

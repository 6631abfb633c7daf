import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { delimiter, isAbsolute, join, resolve } from "node:path";

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where `command` runs from: a path (it has a slash) resolved against `cwd`, or the first
 * executable of that name in the `PATH` directories; `null` when there is none. What the agent's
 * process would find, checked before the loop starts, so a missing agent is one clear error
 * rather than a string of failed iterations.
 *
 * @param command - the executable, as the executor would start it.
 * @param path - the `PATH` variable.
 * @param cwd - the folder the agent runs in.
 */
export async function findExecutable(
  command: string,
  path: string | undefined,
  cwd: string,
): Promise<string | null> {
  if (command.includes("/")) {
    const absolute = isAbsolute(command) ? command : resolve(cwd, command);
    return (await isExecutable(absolute)) ? absolute : null;
  }
  for (const directory of (path ?? "").split(delimiter)) {
    if (directory === "") continue;
    const candidate = join(resolve(cwd, directory), command);
    if (await isExecutable(candidate)) return candidate;
  }
  return null;
}

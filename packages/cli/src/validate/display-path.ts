import { isAbsolute, relative, sep } from "node:path";

/**
 * A path as messages show it: relative to the project folder when it lies inside it
 * (`plan.md`, `.claude/loop/config.yaml`), with `/` separators; absolute otherwise.
 *
 * @param cwd - the project folder, absolute.
 * @param path - the file, absolute.
 */
export function displayPath(cwd: string, path: string): string {
  const inside = relative(cwd, path);
  if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) return path;
  return inside.split(sep).join("/");
}

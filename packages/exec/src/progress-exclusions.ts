import { isAbsolute, relative, sep } from "node:path";

/**
 * A test for paths the loop itself writes, which are never an agent's progress. `exclude` holds
 * paths (absolute, or relative to `cwd`) of files and folders: a path is excluded when it is
 * one of them, lies inside one, or is a sibling file made from one's name — a rotated log
 * (`decision.log.1`) or an atomic write's temporary file (`.status.json.<pid>.<hex>.tmp`).
 *
 * @param cwd - the folder `exclude`'s relative paths are relative to.
 * @param base - the folder the tested paths are relative to (a repository's top level).
 * @param exclude - the loop's own files and folders.
 * @returns the test, on paths relative to `base` with `/` separators.
 */
export function progressExclusions(
  cwd: string,
  base: string,
  exclude: readonly string[],
): (path: string) => boolean {
  const rules = exclude.flatMap((path) => {
    const absolute = isAbsolute(path) ? path : `${cwd}${sep}${path}`;
    const inBase = relative(base, absolute).split(sep).join("/").replace(/\/+$/, "");
    // The base itself, or a path outside it, excludes nothing in it.
    if (inBase === "" || inBase === ".." || inBase.startsWith("../")) return [];
    const slash = inBase.lastIndexOf("/");
    const folder = slash < 0 ? "" : inBase.slice(0, slash + 1);
    const name = inBase.slice(slash + 1);
    return [{ path: inBase, temporary: `${folder}.${name}.`, rotated: `${inBase}.` }];
  });
  return (path) =>
    rules.some(
      (rule) =>
        path === rule.path ||
        path.startsWith(`${rule.path}/`) ||
        path.startsWith(rule.rotated) ||
        (path.startsWith(rule.temporary) && path.endsWith(".tmp")),
    );
}

import { isAbsolute, relative, sep } from "node:path";

/**
 * Whether `path` is `folder` or lies below it (both absolute and resolved): a `relative` path
 * between them that does not climb out with `..`.
 *
 * @param path - the path to test.
 * @param folder - the folder.
 */
export function isInsideFolder(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest === "" || (rest !== ".." && !rest.startsWith(`..${sep}`) && !isAbsolute(rest));
}

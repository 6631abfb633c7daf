import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * Makes `folder` a real git repository with `files` committed, as a user's project is.
 *
 * @param folder - an existing, empty folder.
 * @param files - relative path → content.
 * @param env - the environment of git (e.g. a test's own HOME); default this process's.
 */
export async function initGitRepository(
  folder: string,
  files: Readonly<Record<string, string>>,
  env?: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  const git = (...args: string[]) =>
    run("git", ["-c", "user.name=Loop Test", "-c", "user.email=loop@example.test", ...args], {
      cwd: folder,
      ...(env === undefined ? {} : { env }),
    });
  await git("init", "-q", "-b", "main");
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), content);
  }
  await git("add", "-A");
  await git("commit", "-q", "-m", "initial", "--allow-empty");
}

/**
 * Makes the folder `folder` (its parent must exist) a real git repository with `files`
 * committed: a test's project, made as a user's is.
 *
 * @returns `folder`.
 */
export async function createGitProject(
  folder: string,
  files: Readonly<Record<string, string>>,
  env?: Readonly<Record<string, string | undefined>>,
): Promise<string> {
  await mkdir(folder);
  await initGitRepository(folder, files, env);
  return folder;
}

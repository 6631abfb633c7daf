import { mkdir, readFile, realpath, writeFile } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import { GitCommandError } from "./git-command-error.js";
import { GitVersionError } from "./git-version-error.js";
import type { CheckedOptions } from "./git-workspaces-options.js";
import { PlanOutsideRepositoryError } from "./plan-outside-repository-error.js";
import { RepositoryError } from "./repository-error.js";
import { runGit } from "./run-git.js";

/** The oldest git with `merge-tree --write-tree`. */
export const requiredGitVersion = "2.38";

/** The repository as the workspaces see it, found once on first use. */
export interface Repository {
  /** The main working tree's top level, links resolved. */
  readonly top: string;
  /** The repository's common git directory (`.git` of the main working tree). */
  readonly commonDirectory: string;
  /** The main working tree's own git directory (where its `index` and `HEAD` are). */
  readonly gitDirectory: string;
  /** The worktrees folder, links resolved as far as it exists. */
  readonly root: string;
  /** The plan's path relative to the top level, with `/`. */
  readonly planRelative: string;
  /** `<common dir>/loop`: the records, the journal, the resolutions. */
  readonly stateDirectory: string;
}

/** Checks that git is 2.38 or later. */
async function checkGitVersion(cwd: string): Promise<void> {
  let output: string;
  try {
    output = (await runGit(cwd, ["--version"])).stdout.trim();
  } catch (error) {
    throw new GitVersionError({ version: null, required: requiredGitVersion, cause: error });
  }
  const match = /(\d+)\.(\d+)/.exec(output);
  const major = Number(match?.[1] ?? 0);
  const minor = Number(match?.[2] ?? 0);
  if (major < 2 || (major === 2 && minor < 38)) {
    throw new GitVersionError({ version: output, required: requiredGitVersion });
  }
}

/** `path` with links resolved as far as it exists (the rest appended as written). */
async function realpathSoFar(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    return join(await realpathSoFar(parent), basename(path));
  }
}

/** Whether `child` is `parent` or inside it. */
export function isInside(parent: string, child: string): boolean {
  const path = relative(parent, child);
  return path === "" || (!path.startsWith("..") && !isAbsolute(path));
}

/** Adds `/<root>/` to `.git/info/exclude` when the root is inside the working tree. */
async function excludeRoot(top: string, root: string, commonDirectory: string): Promise<void> {
  if (!isInside(top, root) || root === top) return;
  const line = `/${relative(top, root).split(sep).join("/")}/`;
  const excludePath = join(commonDirectory, "info", "exclude");
  let current = "";
  try {
    current = await readFile(excludePath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (current.split(/\r?\n/).includes(line)) return;
  await mkdir(dirname(excludePath), { recursive: true });
  const separator = current === "" || current.endsWith("\n") ? "" : "\n";
  await writeFile(
    excludePath,
    `${current}${separator}# task worktrees of the loop (@loop/git)\n${line}\n`,
  );
}

/**
 * Finds the repository of the options: checks git's version, that `repo` is a working tree,
 * that the plan is inside it (links resolved), and excludes the worktrees folder from
 * `git status`.
 */
export async function openRepository(options: CheckedOptions): Promise<Repository> {
  await checkGitVersion(options.repo);
  let output: string;
  try {
    output = (
      await runGit(options.repo, [
        "rev-parse",
        "--path-format=absolute",
        "--show-toplevel",
        "--git-common-dir",
        "--git-dir",
      ])
    ).stdout;
  } catch (error) {
    if (GitCommandError.isInstance(error) || (error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new RepositoryError({ repo: options.repo, reason: "not-a-repository", cause: error });
    }
    throw error;
  }
  const [topLine, commonLine, gitLine] = output.split("\n");
  if (
    topLine === undefined ||
    commonLine === undefined ||
    gitLine === undefined ||
    topLine === ""
  ) {
    throw new RepositoryError({ repo: options.repo, reason: "not-a-repository" });
  }
  const top = await realpath(topLine);
  const commonDirectory = await realpath(commonLine);
  const gitDirectory = await realpath(gitLine);
  const root = await realpathSoFar(options.root);
  const plan = await realpathSoFar(options.planPath);
  const planRelative = relative(top, plan);
  if (!isInside(top, plan) || planRelative === "") {
    throw new PlanOutsideRepositoryError({
      planPath: options.planPath,
      repo: top,
      reason: `is not inside the repository working tree ${top}`,
    });
  }
  if (isInside(root, plan)) {
    throw new PlanOutsideRepositoryError({
      planPath: options.planPath,
      repo: top,
      reason: `is inside the worktrees folder ${root}`,
    });
  }
  if (isInside(commonDirectory, plan) || isInside(gitDirectory, plan)) {
    throw new PlanOutsideRepositoryError({
      planPath: options.planPath,
      repo: top,
      reason: `is inside the git directory ${commonDirectory}`,
    });
  }
  if (root === top || isInside(root, top)) {
    throw new TypeError(
      `gitWorkspaces: option \`root\` (${options.root}) must be a folder of its own, not the working tree or a folder above it`,
    );
  }
  await excludeRoot(top, root, commonDirectory);
  await mkdir(root, { recursive: true });
  return {
    top,
    commonDirectory,
    gitDirectory,
    root,
    planRelative: planRelative.split(sep).join("/"),
    stateDirectory: join(commonDirectory, "loop"),
  };
}

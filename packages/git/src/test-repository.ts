import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A throwaway repository for the tests (not part of the package's API). */
export interface TestRepository {
  /** The main working tree. */
  readonly repo: string;
  /** The worktrees folder the tests give `gitWorkspaces`. */
  readonly root: string;
  /** The plan file. */
  readonly planPath: string;
  /** Runs git in the main working tree (or `cwd`) as the user would; its standard output. */
  git(args: readonly string[], cwd?: string): Promise<string>;
  /** Writes a file relative to the main working tree (or `cwd`). */
  write(path: string, text: string, cwd?: string): Promise<void>;
  /** Removes the repository. */
  remove(): Promise<void>;
}

/** The environment of the tests' git: no user or system configuration. */
export const isolatedGitEnvironment = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
} as const;

/** Keeps the user's and the system's git configuration out of this process's git commands. */
export function isolateGit(): void {
  Object.assign(process.env, isolatedGitEnvironment);
}

/**
 * A repository in the system's temporary folder with `files` and the plan committed (the plan
 * left out of the commit with `trackPlan: false`), on branch `main`.
 */
export async function createTestRepository(
  files: Readonly<Record<string, string>> = {},
  options: { readonly plan?: string; readonly trackPlan?: boolean } = {},
): Promise<TestRepository> {
  isolateGit();
  const folder = await mkdtemp(join(tmpdir(), "loop-git-"));
  const repo = join(folder, "repo");
  await mkdir(repo);
  const git = async (args: readonly string[], cwd = repo): Promise<string> =>
    (
      await run(
        "git",
        ["-c", "user.name=Test User", "-c", "user.email=user@example.test", ...args],
        {
          cwd,
          env: { ...process.env, ...isolatedGitEnvironment },
          maxBuffer: 64 * 1024 * 1024,
        },
      )
    ).stdout;
  const write = async (path: string, text: string, cwd = repo): Promise<void> => {
    await mkdir(dirname(join(cwd, path)), { recursive: true });
    await writeFile(join(cwd, path), text);
  };
  await git(["init", "-q", "-b", "main"]);
  await git(["config", "gc.auto", "0"]);
  for (const [path, text] of Object.entries(files)) await write(path, text);
  const planPath = join(repo, "plan.md");
  await write("plan.md", options.plan ?? "# Plan\n\n- [ ] TASK-1 first\n- [ ] TASK-2 second\n");
  await git(["add", "-A"]);
  if (options.trackPlan === false) await git(["rm", "-q", "--cached", "plan.md"]);
  await git(["commit", "-q", "--allow-empty", "-m", "initial"]);
  return {
    repo,
    root: join(repo, ".loop", "worktrees"),
    planPath,
    git,
    write,
    remove: () => rm(folder, { recursive: true, force: true, maxRetries: 3 }),
  };
}

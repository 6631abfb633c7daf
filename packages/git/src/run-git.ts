import { execFile } from "node:child_process";
import { GitCommandError } from "./git-command-error.js";

/** Options of {@link runGit}. */
export interface RunGitOptions {
  /** Exit codes that are answers rather than failures (`[0, 1]` for `merge-tree`). Default `[0]`. */
  readonly allowExitCodes?: readonly number[] | undefined;
  /** Standard input. */
  readonly input?: string | undefined;
  /** Variables added to git's environment (the commit identity). */
  readonly env?: Readonly<Record<string, string>> | undefined;
}

/** What a git command printed, and how it ended. */
export interface GitResult {
  /** Standard output, as UTF-8. */
  readonly stdout: string;
  /** Standard error. */
  readonly stderr: string;
  /** The exit code (one of `allowExitCodes`). */
  readonly exitCode: number;
}

/**
 * Variables of the caller's environment that would point git at another repository, index or
 * working tree (set when the loop runs inside a git hook): git must find the repository from
 * its working directory.
 */
const repositoryVariables = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_COMMON_DIR",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_NAMESPACE",
  "GIT_PREFIX",
];

/** The environment every git command gets: no prompt, no pager, no stray repository. */
export function gitEnvironment(
  extra: Readonly<Record<string, string>> | undefined,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of repositoryVariables) delete env[name];
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_PAGER = "cat";
  env.GIT_EDITOR = "true";
  env.GIT_OPTIONAL_LOCKS = "0";
  return { ...env, ...extra };
}

/**
 * Runs `git` with `args` in `cwd` through `execFile`: never a shell, so task ids, titles and
 * paths are plain arguments. Paths given as pathspecs are literal (`--literal-pathspecs`).
 *
 * @param cwd - the directory git runs in (a working tree).
 * @param args - the arguments after `git`.
 * @param options - exit codes that are not failures, standard input, extra environment.
 * @returns what git printed and its exit code.
 * @throws {GitCommandError} when git exits with another code or cannot be started.
 */
export function runGit(
  cwd: string,
  args: readonly string[],
  options: RunGitOptions = {},
): Promise<GitResult> {
  const allowed = options.allowExitCodes ?? [0];
  const fullArgs = ["--literal-pathspecs", "-c", "core.quotePath=false", ...args];
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      fullArgs,
      {
        cwd,
        encoding: "utf8",
        maxBuffer: 256 * 1024 * 1024,
        windowsHide: true,
        env: gitEnvironment(options.env),
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        if (code !== null && allowed.includes(code)) {
          resolve({ stdout, stderr, exitCode: code });
          return;
        }
        reject(new GitCommandError({ args, cwd, exitCode: code, stderr, cause: error }));
      },
    );
    // git may exit before reading its input (a failed command): EPIPE is then no news.
    child.stdin?.on("error", () => undefined);
    if (options.input === undefined) child.stdin?.end();
    else child.stdin?.end(options.input);
  });
}

/**
 * Arguments that keep a `git commit` or `git merge` from starting `git maintenance run --auto`
 * after it (one more git, waited for, per commit): the workspaces' commits and merges leave the
 * repository's upkeep to the user's own next git command.
 */
export const withoutAutoMaintenance = ["-c", "maintenance.auto=false"] as const;

/**
 * The arguments of the workspaces' own commits of what is staged: no hooks, no signing, no
 * automatic maintenance after it, `message` as given (even empty).
 */
export function commitArgs(message: string): string[] {
  return [
    ...withoutAutoMaintenance,
    "commit",
    "-q",
    "--no-verify",
    "--no-gpg-sign",
    "--allow-empty-message",
    "-m",
    message,
  ];
}

/** Splits git's `-z` output into its fields, without the empty one after the last NUL. */
export function splitNul(output: string): string[] {
  const fields = output.split("\0");
  if (fields.at(-1) === "") fields.pop();
  return fields;
}

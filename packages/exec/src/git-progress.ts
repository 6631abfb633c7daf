import { execFile } from "node:child_process";

/** The state of one repository before a run. */
export interface GitRepositorySnapshot {
  /** The repository's working directory. */
  readonly cwd: string;
  /** `HEAD`'s commit before the run; `null` when not a repository or no commit yet. */
  readonly head: string | null;
  /** Paths `git status --porcelain` listed before the run, with their status line. */
  readonly status: ReadonlyMap<string, string>;
}

/** What {@link GitProgress.before} returns: one snapshot per directory. */
export interface GitProgressSnapshot {
  /** The snapshots, in the order of the directories. */
  readonly repositories: readonly GitRepositorySnapshot[];
}

/** What changed between {@link GitProgress.before} and {@link GitProgress.after}. */
export interface GitProgressResult {
  /** Files changed: working-tree status differences plus files touched by new commits. */
  readonly filesChanged: number;
  /** Commits made since the snapshot. */
  readonly commits: number;
}

/** Measures progress of a run in one or more git repositories. */
export interface GitProgress {
  /** Takes a snapshot before the run. */
  before(): Promise<GitProgressSnapshot>;
  /** Compares the repositories with `snapshot`. */
  after(snapshot: GitProgressSnapshot): Promise<GitProgressResult>;
}

/** Options of {@link gitProgress}: one directory or several. */
export type GitProgressOptions =
  | { readonly cwd: string; readonly cwds?: undefined }
  | { readonly cwds: readonly string[]; readonly cwd?: undefined };

/**
 * A git progress probe for {@link CommandExecutorOptions.progress}. `git` runs through
 * `execFile` (no shell). A directory that is not a repository, or a machine without git,
 * counts zero changes, never an error.
 *
 * @param options - `cwd`, or `cwds` for several repositories.
 * @returns the probe.
 * @throws {TypeError} "gitProgress: Missing required option `cwd` or `cwds`".
 * @example
 * ```ts
 * const executor = new CommandExecutor({ command: "codex", progress: gitProgress({ cwd: "." }) });
 * ```
 */
export function gitProgress(options: GitProgressOptions): GitProgress {
  const directories = readDirectories(options);
  return {
    async before() {
      return { repositories: await Promise.all(directories.map(snapshotRepository)) };
    },
    async after(snapshot) {
      const results = await Promise.all(snapshot.repositories.map(compareRepository));
      return {
        filesChanged: results.reduce((total, result) => total + result.filesChanged, 0),
        commits: results.reduce((total, result) => total + result.commits, 0),
      };
    },
  };
}

function readDirectories(options: GitProgressOptions | null | undefined): readonly string[] {
  const cwds = options?.cwds ?? (options?.cwd === undefined ? undefined : [options.cwd]);
  if (cwds === undefined)
    throw new TypeError("gitProgress: Missing required option `cwd` or `cwds`");
  if (!Array.isArray(cwds) || !cwds.every((cwd) => typeof cwd === "string" && cwd !== "")) {
    throw new TypeError(
      `gitProgress: option \`cwd\`/\`cwds\` must be non-empty strings, got ${JSON.stringify(cwds)}`,
    );
  }
  return cwds;
}

/** Runs git; `null` on any failure (no git, not a repository, no commit). */
function git(cwd: string, args: readonly string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(
      "git",
      [...args],
      { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, windowsHide: true },
      (error, stdout) => resolve(error ? null : stdout),
    );
  });
}

async function readStatus(cwd: string): Promise<Map<string, string>> {
  const output = await git(cwd, ["status", "--porcelain", "-z", "--untracked-files=all"]);
  const status = new Map<string, string>();
  if (output === null) return status;
  const entries = output.split("\0");
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] ?? "";
    if (entry.length < 4) continue;
    const code = entry.slice(0, 2);
    status.set(entry.slice(3), code);
    // A rename or copy is followed by its source path.
    if (code.startsWith("R") || code.startsWith("C")) index++;
  }
  return status;
}

async function readHead(cwd: string): Promise<string | null> {
  return (await git(cwd, ["rev-parse", "--verify", "-q", "HEAD"]))?.trim() || null;
}

async function snapshotRepository(cwd: string): Promise<GitRepositorySnapshot> {
  const [head, status] = await Promise.all([readHead(cwd), readStatus(cwd)]);
  return { cwd, head, status };
}

async function compareRepository(before: GitRepositorySnapshot): Promise<GitProgressResult> {
  const [head, status] = await Promise.all([readHead(before.cwd), readStatus(before.cwd)]);
  const changed = new Set<string>();
  for (const path of new Set([...before.status.keys(), ...status.keys()])) {
    if (before.status.get(path) !== status.get(path)) changed.add(path);
  }
  let commits = 0;
  if (head !== null && head !== before.head) {
    const range = before.head === null ? [head] : [`${before.head}..${head}`];
    const count = await git(before.cwd, ["rev-list", "--count", ...range]);
    commits = Number.parseInt(count ?? "0", 10) || 0;
    const files = await git(before.cwd, ["log", "--format=", "--name-only", "-z", ...range]);
    for (const path of (files ?? "").split(/[\0\n]/)) if (path !== "") changed.add(path);
  }
  return { filesChanged: changed.size, commits };
}

import { execFile } from "node:child_process";
import { probeGitEnvironment } from "./probe-git-environment.js";
import { rebaseRepository } from "./progress-baseline.js";
import { progressExclusions } from "./progress-exclusions.js";
import { fingerprintsOf, snapshotTree } from "./tree-snapshot.js";
import { startWaitingGit, type WaitingGit } from "./waiting-git.js";

/** The state of one directory before a run. */
export interface GitRepositorySnapshot {
  /** The directory (a repository's working directory, or any folder). */
  readonly cwd: string;
  /**
   * How it is measured: `git` (a repository), `tree` (a folder outside git, by a bounded
   * snapshot of its files, with `outsideGit: "snapshot"`) or `none` (outside git, not measured).
   */
  readonly kind: "git" | "tree" | "none";
  /** `HEAD`'s commit before the run; `null` when not a repository or no commit yet. */
  readonly head: string | null;
  /** Paths `git status --porcelain` listed before the run, with their status code. */
  readonly status: ReadonlyMap<string, string>;
  /**
   * The fingerprint (size, modification time) of every path in {@link status} — or, for a
   * `tree`, of every file seen — so a file the agent edits further is seen even when its
   * status code stays the same (` M` before and after).
   */
  readonly fingerprints: ReadonlyMap<string, string>;
  /** Whether a `tree` snapshot stopped at `maxFiles`, so changes past it go unseen. */
  readonly truncated: boolean;
  /**
   * Paths (relative to the top level) that changed, or that the caller rewrote, after git read
   * the tree, with their fingerprint when this baseline was taken: a `git` baseline reused from
   * the previous {@link GitProgress.after} (see {@link GitProgressSettings.reuseWithinMs}) does
   * not know their status code, so they count as changed when their fingerprint changes. Absent
   * for a baseline git read afresh.
   */
  readonly rewritten?: ReadonlyMap<string, string> | undefined;
}

/** What {@link GitProgress.before} returns: one snapshot per directory. */
export interface GitProgressSnapshot {
  /** The snapshots, in the order of the directories. */
  readonly repositories: readonly GitRepositorySnapshot[];
}

/** What changed between {@link GitProgress.before} and {@link GitProgress.after}. */
export interface GitProgressResult {
  /** Files changed: working-tree changes plus files touched by new commits. */
  readonly filesChanged: number;
  /** Commits made since the snapshot. */
  readonly commits: number;
}

/** Options of {@link GitProgress.before}. */
export interface GitProgressBeforeOptions {
  /**
   * Files the caller itself wrote since the last run ended (absolute, or relative to this
   * process's working directory) — the loop's edits of the plan: a baseline reused from the
   * last {@link GitProgress.after} reads them afresh, so those edits are not the next run's
   * progress, even when git listed them as unchanged. Ignored when git is read afresh (it sees
   * them).
   */
  readonly rewritten?: readonly string[] | undefined;
}

/** Measures progress of a run in one or more git repositories. */
export interface GitProgress {
  /** Takes a snapshot before the run: the baseline the run's changes are measured against. */
  before(options?: GitProgressBeforeOptions): Promise<GitProgressSnapshot>;
  /** Compares the repositories with `snapshot`. */
  after(snapshot: GitProgressSnapshot): Promise<GitProgressResult>;
  /**
   * Told once the run has started (the agent's process is up), with the snapshot `before`
   * returned: the probe may get its `after` ready meanwhile (`gitProgress` starts each
   * repository's `git status` waiting, so that starting it costs nothing once the run is over).
   * Optional; `after` works without it.
   */
  running?(snapshot: GitProgressSnapshot): void;
}

/** Options of {@link gitProgress} besides the directories. */
export interface GitProgressSettings {
  /**
   * Files and folders the loop itself writes (absolute, or relative to the directory): its
   * state, logs and `status.json`. Changes to them — and to their rotated copies and atomic
   * writes' temporary files beside them — are never progress. Default: none.
   */
  readonly exclude?: readonly string[] | undefined;
  /**
   * A directory that is not a git repository: `ignore` (the default) counts no change there;
   * `snapshot` compares a bounded snapshot of its files (size and modification time).
   */
  readonly outsideGit?: "ignore" | "snapshot" | undefined;
  /** The most files a `snapshot` fingerprints. Default 20,000. */
  readonly maxFiles?: number | undefined;
  /**
   * When `before` comes at most this many milliseconds after the last `after` ended, a
   * repository's status as that `after` read it is the new baseline and git is not run again:
   * one git run per run instead of two. Every path that status listed, and each file named in
   * `before`'s `rewritten`, is looked at afresh (a stat each), and one that changed in between
   * (the loop's plan edit, the loop's output redirected into the project) is not the next run's
   * progress. A file git did not list that someone else changes in those milliseconds (a
   * tracked, unchanged file, or a new one) counts as the next run's, as it would while the agent
   * runs: leave this at 0 when your own code writes such files between runs. A baseline is
   * reused once; a folder outside git is walked afresh. Default 0: git is read for every
   * `before`.
   */
  readonly reuseWithinMs?: number | undefined;
}

/** Options of {@link gitProgress}: one directory or several, and {@link GitProgressSettings}. */
export type GitProgressOptions = GitProgressSettings &
  (
    | { readonly cwd: string; readonly cwds?: undefined }
    | { readonly cwds: readonly string[]; readonly cwd?: undefined }
  );

/** The default of {@link GitProgressSettings.maxFiles}. */
const DEFAULT_MAX_FILES = 20_000;

/**
 * A progress probe for {@link CommandExecutorOptions.progress}: what a run changed against the
 * baseline taken before it — commits, and committed, staged, unstaged and new files — leaving
 * out the loop's own files. `git` runs without a shell reading its arguments (`execFile`, or
 * as a waiting git's `"$@"`, see `running`). A directory that is not a repository, or a machine
 * without git, counts zero changes (or, with
 * `outsideGit: "snapshot"`, the changes a bounded file snapshot shows), never an error.
 *
 * @param options - `cwd`, or `cwds` for several repositories, and {@link GitProgressSettings}.
 * @returns the probe.
 * @throws {TypeError} "gitProgress: Missing required option `cwd` or `cwds`".
 * @example
 * ```ts
 * const executor = new CommandExecutor({
 *   command: "codex",
 *   progress: gitProgress({ cwd: ".", exclude: [".claude/loop/logs"], outsideGit: "snapshot" }),
 * });
 * ```
 */
export function gitProgress(options: GitProgressOptions): GitProgress {
  const directories = readDirectories(options);
  const settings = readSettings(options);
  // A directory's repository top level, found once: one git run per snapshot after that.
  const tops = new Map<string, Promise<string | null>>();
  const topOf = (cwd: string): Promise<string | null> => {
    let top = tops.get(cwd);
    if (top === undefined) {
      top = readTopLevel(cwd);
      tops.set(cwd, top);
    }
    return top;
  };
  const settingsWithTop = { ...settings, topOf };
  /** The tree as the last `after` read it, and when that was (`Date.now()`). */
  let last: { readonly snapshot: GitProgressSnapshot; readonly at: number } | null = null;
  /** The `git status` of each repository of a running snapshot, started and waiting. */
  let waiting: {
    readonly snapshot: GitProgressSnapshot;
    readonly gits: readonly (WaitingGit | null)[];
  } | null = null;
  /** The waiting gits of `snapshot`, taken (and any others discarded). */
  const takeWaiting = (snapshot: GitProgressSnapshot | null): readonly (WaitingGit | null)[] => {
    const taken = waiting;
    waiting = null;
    if (taken === null) return [];
    if (taken.snapshot === snapshot) return taken.gits;
    for (const waitingGit of taken.gits) waitingGit?.discard();
    return [];
  };
  return {
    async before(options) {
      takeWaiting(null);
      const reusable = last;
      last = null;
      const fresh = reusable === null || Date.now() - reusable.at > settings.reuseWithinMs;
      const rewritten = options?.rewritten ?? [];
      const snapshots = directories.map((cwd, index) => {
        const last = fresh ? undefined : reusable?.snapshot.repositories[index];
        // A repository's last status is reused; a folder outside git is walked again.
        return last?.kind === "git" && last.cwd === cwd
          ? rebaseRepository(last, rewritten, settingsWithTop)
          : snapshotDirectory(cwd, settingsWithTop);
      });
      return { repositories: await Promise.all(snapshots) };
    },
    async after(snapshot) {
      last = null;
      const gits = takeWaiting(snapshot);
      const compared = snapshot.repositories.map((item, index) =>
        compareDirectory(item, settingsWithTop, gits[index] ?? null),
      );
      const results = await Promise.all(compared);
      if (settings.reuseWithinMs > 0) {
        last = { snapshot: { repositories: results.map((item) => item.now) }, at: Date.now() };
      }
      return {
        filesChanged: results.reduce((total, result) => total + result.filesChanged, 0),
        commits: results.reduce((total, result) => total + result.commits, 0),
      };
    },
    running(snapshot) {
      takeWaiting(null);
      waiting = {
        snapshot,
        gits: snapshot.repositories.map((item) =>
          item.kind === "git"
            ? startWaitingGit(item.cwd, STATUS_ARGS, probeGitEnvironment())
            : null,
        ),
      };
    },
  };
}

interface Settings {
  readonly exclude: readonly string[];
  readonly outsideGit: "ignore" | "snapshot";
  readonly maxFiles: number;
  readonly reuseWithinMs: number;
}

/** The settings, and how to find a directory's repository top level (kept per probe). */
interface ProbeSettings extends Settings {
  readonly topOf: (cwd: string) => Promise<string | null>;
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

function readSettings(options: GitProgressSettings): Settings {
  const exclude = options.exclude ?? [];
  if (
    !Array.isArray(exclude) ||
    !exclude.every((path) => typeof path === "string" && path !== "")
  ) {
    throw new TypeError(
      `gitProgress: option \`exclude\` must be an array of non-empty paths, got ${JSON.stringify(exclude)}`,
    );
  }
  const outsideGit = options.outsideGit ?? "ignore";
  if (outsideGit !== "ignore" && outsideGit !== "snapshot") {
    throw new TypeError(
      `gitProgress: option \`outsideGit\` must be "ignore" or "snapshot", got ${JSON.stringify(outsideGit)}`,
    );
  }
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  if (!Number.isSafeInteger(maxFiles) || maxFiles < 1) {
    throw new TypeError(
      `gitProgress: option \`maxFiles\` must be a whole number of at least 1, got ${String(maxFiles)}`,
    );
  }
  const reuseWithinMs = options.reuseWithinMs ?? 0;
  if (typeof reuseWithinMs !== "number" || !Number.isFinite(reuseWithinMs) || reuseWithinMs < 0) {
    throw new TypeError(
      `gitProgress: option \`reuseWithinMs\` must be a number of milliseconds of at least 0, got ${String(reuseWithinMs)}`,
    );
  }
  return { exclude, outsideGit, maxFiles, reuseWithinMs };
}

/** Runs git; `null` on any failure (no git, not a repository, no commit). */
function git(cwd: string, args: readonly string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(
      "git",
      [...args],
      {
        cwd,
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
        windowsHide: true,
        env: probeGitEnvironment(),
      },
      (error, stdout) => resolve(error ? null : stdout),
    );
  });
}

/** The `git status` a snapshot and a comparison read: `HEAD` and every changed path. */
const STATUS_ARGS = ["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all"];

/** What one `git status --porcelain=v2 --branch` tells: `HEAD`, and each listed path's code. */
interface RepositoryStatus {
  /** `HEAD`'s commit; `null` before the first commit (or when git failed). */
  readonly head: string | null;
  /** Path → its two-letter status code as `--porcelain` v1 writes it (` M`, `??`, `R `…). */
  readonly status: Map<string, string>;
}

/** The two-letter code of a v2 entry's `XY` field, as v1 writes it (`.` is a space). */
function v1Code(xy: string): string {
  return xy.replaceAll(".", " ");
}

/**
 * `HEAD` and `git status` in one git run (`--porcelain=v2 --branch -z`), paths relative to the
 * top level, leaving out `excluded` paths.
 */
async function readRepository(
  cwd: string,
  excluded: (path: string) => boolean,
  waitingGit: WaitingGit | null = null,
): Promise<RepositoryStatus> {
  // A waiting git that could not run (no shell, discarded) leaves it to a git of our own.
  const output = (await waitingGit?.run()) ?? (await git(cwd, STATUS_ARGS));
  const status = new Map<string, string>();
  let head: string | null = null;
  if (output === null) return { head, status };
  const entries = output.split("\0");
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] ?? "";
    let code: string;
    let path: string;
    if (entry.startsWith("# branch.oid ")) {
      const oid = entry.slice("# branch.oid ".length);
      head = oid === "(initial)" ? null : oid;
      continue;
    }
    if (entry.startsWith("? ") || entry.startsWith("! ")) {
      code = entry.startsWith("?") ? "??" : "!!";
      path = entry.slice(2);
    } else if (entry.startsWith("1 ") || entry.startsWith("2 ") || entry.startsWith("u ")) {
      // Fields before the path: 8 for an ordinary entry, 9 for a rename or copy (its score),
      // 10 for an unmerged one. The path itself may hold spaces.
      const skip = entry.startsWith("1 ") ? 8 : entry.startsWith("2 ") ? 9 : 10;
      let at = 0;
      for (let field = 0; field < skip && at >= 0; field++) at = entry.indexOf(" ", at) + 1;
      code = v1Code(entry.slice(2, 4));
      path = entry.slice(at);
      // A rename or copy is followed by its source path.
      if (entry.startsWith("2 ")) index++;
    } else {
      continue;
    }
    if (path !== "" && !excluded(path)) status.set(path, code);
  }
  return { head, status };
}

/** The repository's top level (status paths are relative to it); `null` outside git. */
async function readTopLevel(cwd: string): Promise<string | null> {
  return (await git(cwd, ["rev-parse", "--show-toplevel"]))?.trim() || null;
}

async function snapshotDirectory(
  cwd: string,
  settings: ProbeSettings,
): Promise<GitRepositorySnapshot> {
  const top = await settings.topOf(cwd);
  if (top === null) {
    const empty = { cwd, head: null, status: new Map(), fingerprints: new Map() };
    if (settings.outsideGit === "ignore") return { ...empty, kind: "none", truncated: false };
    const tree = await snapshotTree(
      cwd,
      progressExclusions(cwd, cwd, settings.exclude),
      settings.maxFiles,
    );
    return { ...empty, kind: "tree", fingerprints: tree.files, truncated: tree.truncated };
  }
  const excluded = progressExclusions(cwd, top, settings.exclude);
  const { head, status } = await readRepository(cwd, excluded);
  const fingerprints = fingerprintsOf(top, status.keys());
  return { cwd, kind: "git", head, status, fingerprints, truncated: false };
}

/** The paths whose entry differs between two maps (present in one only, or changed). */
function differing(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  into: Set<string>,
): void {
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    if (before.get(path) !== after.get(path)) into.add(path);
  }
}

/** What one directory's comparison found, and the directory as it read it. */
interface DirectoryComparison extends GitProgressResult {
  /** The directory now: the baseline of a next run that reuses it. */
  readonly now: GitRepositorySnapshot;
}

async function compareDirectory(
  before: GitRepositorySnapshot,
  settings: ProbeSettings,
  waitingGit: WaitingGit | null,
): Promise<DirectoryComparison> {
  if (before.kind === "none") return { filesChanged: 0, commits: 0, now: before };
  const changed = new Set<string>();
  if (before.kind === "tree") {
    const excluded = progressExclusions(before.cwd, before.cwd, settings.exclude);
    const tree = await snapshotTree(before.cwd, excluded, settings.maxFiles);
    const seen = before.truncated
      ? new Map([...tree.files].filter(([path]) => before.fingerprints.has(path)))
      : tree.files;
    differing(before.fingerprints, seen, changed);
    const now = { ...before, fingerprints: tree.files, truncated: tree.truncated };
    return { filesChanged: changed.size, commits: 0, now };
  }
  const top = (await settings.topOf(before.cwd)) ?? before.cwd;
  const excluded = progressExclusions(before.cwd, top, settings.exclude);
  const { head, status } = await readRepository(before.cwd, excluded, waitingGit);
  const rewritten = before.rewritten ?? new Map<string, string>();
  // A rewritten path's status code before the run is not known: its fingerprint tells.
  const listed = (map: ReadonlyMap<string, string>) =>
    rewritten.size === 0 ? map : new Map([...map].filter(([path]) => !rewritten.has(path)));
  differing(listed(before.status), listed(status), changed);
  const fingerprints = fingerprintsOf(top, status.keys());
  const rewrittenNow = fingerprintsOf(top, rewritten.keys());
  for (const [path, print] of fingerprints) {
    if (before.fingerprints.has(path) && before.fingerprints.get(path) !== print) changed.add(path);
  }
  for (const [path, print] of rewrittenNow) {
    if (rewritten.get(path) !== print) changed.add(path);
  }
  let commits = 0;
  if (head !== null && head !== before.head) {
    const range = before.head === null ? [head] : [`${before.head}..${head}`];
    const count = await git(before.cwd, ["rev-list", "--count", ...range]);
    commits = Number.parseInt(count ?? "0", 10) || 0;
    const files = await git(before.cwd, ["log", "--format=", "--name-only", "-z", ...range]);
    for (const path of (files ?? "").split(/[\0\n]/)) {
      if (path !== "" && !excluded(path)) changed.add(path);
    }
  }
  const now: GitRepositorySnapshot = {
    cwd: before.cwd,
    kind: "git",
    head,
    status,
    fingerprints,
    truncated: false,
  };
  return { filesChanged: changed.size, commits, now };
}

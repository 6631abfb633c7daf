import { isAbsolute, relative, resolve } from "node:path";
import { PlanOutsideRepositoryError } from "./plan-outside-repository-error.js";
import { DEFAULT_LOCK_TIMEOUT_MS } from "./stale-locks.js";

/** Options of {@link gitWorkspaces}. */
export interface GitWorkspacesOptions {
  /** The main working tree: where the main line is checked out and the plan lives. */
  readonly repo: string;
  /**
   * The folder of the task worktrees, e.g. `<repo>/.loop/worktrees`. It belongs to the
   * workspaces: recovery removes what it finds there that is not a task's worktree. Inside the
   * working tree it is added to `.git/info/exclude`, so it never shows in `git status`.
   */
  readonly root: string;
  /** The plan file, absolute, inside the working tree of `repo`. */
  readonly planPath: string;
  /** What task branch names start with. Default `loop/`. */
  readonly branchPrefix?: string | null | undefined;
  /** The clock of the records' timestamps (`keptAt`). Default `Date.now`. */
  readonly now?: (() => number) | null | undefined;
  /**
   * How long `recover` waits for a git lock file (`index.lock`, a ref's `.lock`) to go before
   * it counts as left by a git that was killed, and removes it. Default
   * {@link DEFAULT_LOCK_TIMEOUT_MS} (2000).
   */
  readonly lockTimeoutMs?: number | null | undefined;
}

/** The options, checked and with their defaults. */
export interface CheckedOptions {
  /** `repo`, absolute. */
  readonly repo: string;
  /** `root`, absolute. */
  readonly root: string;
  /** `planPath`. */
  readonly planPath: string;
  /** `branchPrefix` or `loop/`. */
  readonly branchPrefix: string;
  /** `now` or `Date.now`. */
  readonly now: () => number;
  /** `lockTimeoutMs` or 2000. */
  readonly lockTimeoutMs: number;
}

/** Reads a required path option. */
function requirePath(options: Record<string, unknown>, name: string): string {
  const value = options[name];
  if (value === undefined || value === null) {
    throw new TypeError(`gitWorkspaces: Missing required option \`${name}\``);
  }
  if (typeof value !== "string" || value === "") {
    throw new TypeError(
      `gitWorkspaces: option \`${name}\` must be a non-empty string, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** Characters git refuses in ref names, and sequences it refuses. */
const invalidPrefix = /[\s~^:?*[\\]|\.\.|@\{|\/\/|^\/|^-|\.lock\/|\/\.|^\./;

/** Whether `text` holds an ASCII control character (git refuses them in ref names). */
function hasControlCharacter(text: string): boolean {
  return [...text].some((character) => {
    const code = character.charCodeAt(0);
    return code < 0x20 || code === 0x7f;
  });
}

/**
 * Checks the options of {@link gitWorkspaces} before anything is done.
 *
 * @throws {TypeError} for a missing or malformed option.
 * @throws {PlanOutsideRepositoryError} when `planPath` is not inside `repo` (as written; links
 *   are resolved and checked again on first use).
 */
export function checkOptions(options: GitWorkspacesOptions | null | undefined): CheckedOptions {
  if (options === null || options === undefined || typeof options !== "object") {
    throw new TypeError("gitWorkspaces: Missing required option `repo`");
  }
  const record = options as unknown as Record<string, unknown>;
  const repo = resolve(requirePath(record, "repo"));
  const root = resolve(requirePath(record, "root"));
  const planPath = requirePath(record, "planPath");
  if (!isAbsolute(planPath)) {
    throw new TypeError(`gitWorkspaces: option \`planPath\` must be absolute, got ${planPath}`);
  }
  const planRelative = relative(repo, planPath);
  if (planRelative === "" || planRelative.startsWith("..") || isAbsolute(planRelative)) {
    throw new PlanOutsideRepositoryError({
      planPath,
      repo,
      reason: `is not inside the repository working tree ${repo}`,
    });
  }
  const branchPrefix = options.branchPrefix ?? "loop/";
  if (
    typeof branchPrefix !== "string" ||
    branchPrefix === "" ||
    invalidPrefix.test(branchPrefix) ||
    hasControlCharacter(branchPrefix)
  ) {
    throw new TypeError(
      `gitWorkspaces: option \`branchPrefix\` must be the start of a valid branch name (like "loop/"), got ${JSON.stringify(branchPrefix)}`,
    );
  }
  const now = options.now ?? Date.now;
  if (typeof now !== "function") {
    throw new TypeError("gitWorkspaces: option `now` must be a function returning epoch ms");
  }
  const lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  if (typeof lockTimeoutMs !== "number" || !Number.isFinite(lockTimeoutMs) || lockTimeoutMs < 0) {
    throw new TypeError(
      `gitWorkspaces: option \`lockTimeoutMs\` must be a number of milliseconds ≥ 0, got ${JSON.stringify(lockTimeoutMs)}`,
    );
  }
  return { repo, root, planPath, branchPrefix, now, lockTimeoutMs };
}

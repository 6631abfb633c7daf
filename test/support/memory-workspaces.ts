import type {
  Integration,
  KeptWork,
  MergeConflict,
  PlanSource,
  TaskWorkspace,
  WorkspaceRecovery,
  Workspaces,
} from "@loop/core";

/** Files by path: a working copy's, or the main line's. */
export type Files = Map<string, string>;

/** A working copy of {@link MemoryWorkspaces}, with its files for the test's agent to edit. */
export interface MemoryWorkspace extends TaskWorkspace {
  /** The working copy's files; the agent edits these. */
  readonly files: Files;
}

interface Entry {
  readonly workspace: MemoryWorkspace;
  /** The main line's files when it was opened. */
  readonly base: Files;
  /** The files as the last save left them. */
  saved: Files;
}

/** What {@link MemoryWorkspaces} did, for assertions. */
export interface WorkspaceCall {
  readonly method: "open" | "save" | "integrate" | "close";
  readonly taskId: string;
  readonly detail?: string | undefined;
}

function planCopy(path: string, text: string): PlanSource & { text: string } {
  const plan = {
    path,
    text,
    read: async () => plan.text,
    write: async (next: string) => {
      plan.text = next;
    },
  };
  return plan;
}

/** The files of `next` that differ from `base` (added, changed or removed). */
function changed(base: Files, next: Files): string[] {
  const paths = new Set([...base.keys(), ...next.keys()]);
  return [...paths].filter((path) => base.get(path) !== next.get(path));
}

/**
 * `Workspaces` in memory, for tests of the engine's parallel runs (the engine is what they
 * test; `@loop/git`'s tests and the end-to-end tests run real git). The main line is a map of
 * files; a working copy copies it; integrating applies the copy's changes since it was opened,
 * and conflicts when the main line changed one of the same files since then, unless
 * `resolve` leaves that file without conflict markers.
 */
export class MemoryWorkspaces implements Workspaces {
  readonly name = "memory";
  readonly main: Files;
  readonly calls: WorkspaceCall[] = [];
  readonly #open = new Map<string, Entry>();
  readonly #kept = new Map<string, { taskId: string; files: Files; keptAt: number }>();
  #integrating = 0;
  /** The most integrations that ran at once (the engine promises one). */
  maxConcurrentIntegrations = 0;

  constructor(files: Record<string, string> = {}) {
    this.main = new Map(Object.entries(files));
  }

  async recover(options: { readonly resume: readonly string[] }): Promise<WorkspaceRecovery> {
    const reopened = options.resume
      .map((id) => this.#open.get(id)?.workspace)
      .filter((workspace): workspace is MemoryWorkspace => workspace !== undefined);
    const kept: { taskId: string; branch: string }[] = [];
    for (const [id, entry] of this.#open) {
      if (options.resume.includes(id)) continue;
      const closed = await this.close(entry.workspace, { keep: true });
      if (closed.keptBranch !== null) kept.push({ taskId: id, branch: closed.keptBranch });
    }
    return { reopened, kept, removed: [], integrations: [] };
  }

  async open(
    task: { readonly id: string; readonly title: string },
    options: { readonly planText: string; readonly from?: string | undefined },
  ): Promise<MemoryWorkspace> {
    this.calls.push({ method: "open", taskId: task.id, detail: options.from });
    const existing = this.#open.get(task.id);
    if (existing !== undefined) {
      await existing.workspace.plan.write(options.planText);
      return existing.workspace;
    }
    const kept = options.from === undefined ? undefined : this.#kept.get(options.from);
    if (options.from !== undefined) this.#kept.delete(options.from);
    const base = new Map(this.main);
    const files = new Map(kept?.files ?? this.main);
    const workspace: MemoryWorkspace = {
      taskId: task.id,
      path: `/workspaces/${task.id}`,
      branch: `loop/${task.id}`,
      plan: planCopy(`/workspaces/${task.id}/plan.md`, options.planText),
      files,
    };
    this.#open.set(task.id, { workspace, base, saved: new Map(kept === undefined ? base : files) });
    return workspace;
  }

  async save(workspace: TaskWorkspace): Promise<{ filesChanged: number; commits: number }> {
    const entry = this.#entry(workspace);
    const files = changed(entry.saved, entry.workspace.files);
    entry.saved = new Map(entry.workspace.files);
    this.calls.push({ method: "save", taskId: workspace.taskId, detail: files.join(",") });
    return { filesChanged: files.length, commits: files.length > 0 ? 1 : 0 };
  }

  async integrate(
    workspace: TaskWorkspace,
    options: { readonly resolve?: ((conflict: MergeConflict) => Promise<void>) | undefined },
  ): Promise<Integration> {
    this.#integrating += 1;
    this.maxConcurrentIntegrations = Math.max(this.maxConcurrentIntegrations, this.#integrating);
    try {
      await Promise.resolve();
      const entry = this.#entry(workspace);
      const mine = changed(entry.base, entry.saved);
      const theirs = new Set(changed(entry.base, this.main));
      let conflicts = mine.filter(
        (path) => theirs.has(path) && this.main.get(path) !== entry.saved.get(path),
      );
      let resolved = false;
      if (conflicts.length > 0 && options.resolve !== undefined) {
        for (const path of conflicts) {
          entry.workspace.files.set(
            path,
            `<<<<<<< main\n${this.main.get(path) ?? ""}\n=======\n${entry.saved.get(path) ?? ""}\n>>>>>>> task\n`,
          );
        }
        await options.resolve({
          taskId: workspace.taskId,
          path: workspace.path,
          files: conflicts,
          description: `${workspace.branch} into main`,
        });
        const left = conflicts.filter((path) =>
          (entry.workspace.files.get(path) ?? "").includes("<<<<<<<"),
        );
        if (left.length === 0) {
          for (const path of conflicts) this.main.set(path, entry.workspace.files.get(path) ?? "");
          entry.saved = new Map(entry.workspace.files);
          resolved = true;
          conflicts = [];
        } else {
          for (const path of conflicts)
            entry.workspace.files.set(path, entry.saved.get(path) ?? "");
        }
      }
      this.calls.push({
        method: "integrate",
        taskId: workspace.taskId,
        detail: conflicts.length > 0 ? "conflict" : "integrated",
      });
      if (conflicts.length > 0) {
        return { kind: "conflict", files: conflicts, keptBranch: workspace.branch };
      }
      for (const path of mine) {
        const content = entry.saved.get(path);
        if (content === undefined) this.main.delete(path);
        else this.main.set(path, content);
      }
      return {
        kind: "integrated",
        commit: mine.length > 0 ? `merge-${workspace.taskId}` : null,
        filesChanged: mine.length,
        resolved,
      };
    } finally {
      this.#integrating -= 1;
    }
  }

  async close(
    workspace: TaskWorkspace,
    options: { readonly keep: boolean },
  ): Promise<{ readonly keptBranch: string | null }> {
    const entry = this.#entry(workspace);
    this.#open.delete(workspace.taskId);
    this.calls.push({ method: "close", taskId: workspace.taskId, detail: String(options.keep) });
    if (!options.keep || changed(entry.base, entry.saved).length === 0) return { keptBranch: null };
    const branch = `loop/kept/${workspace.taskId}/${this.#kept.size + 1}`;
    this.#kept.set(branch, { taskId: workspace.taskId, files: entry.saved, keptAt: 0 });
    return { keptBranch: branch };
  }

  async kept(): Promise<readonly KeptWork[]> {
    return [...this.#kept].map(([branch, kept]) => ({
      taskId: kept.taskId,
      branch,
      keptAt: kept.keptAt,
      commits: 1,
    }));
  }

  async discard(branch: string): Promise<void> {
    this.#kept.delete(branch);
  }

  /** The task's open working copy (throws when it has none). */
  workspaceOf(taskId: string): MemoryWorkspace {
    const entry = this.#open.get(taskId);
    if (entry === undefined) throw new Error(`no working copy is open for ${taskId}`);
    return entry.workspace;
  }

  /** The working copies open now, by task. */
  get openTasks(): string[] {
    return [...this.#open.keys()];
  }

  #entry(workspace: TaskWorkspace): Entry {
    const entry = this.#open.get(workspace.taskId);
    if (entry === undefined) throw new Error(`no working copy is open for ${workspace.taskId}`);
    return entry;
  }
}

import { readFile } from "node:fs/promises";
import { isAbsolute, relative } from "node:path";
import { createStateManager, type LoopConfig, LoopError, type Workspaces } from "@loop/core";
import { parseCommandArgs, textOption } from "../args.js";
import { findKept } from "../branches/find-kept.js";
import { keptListJson, keptListLines } from "../branches/kept-list-lines.js";
import { keptRows } from "../branches/kept-rows.js";
import { type PlanTask, readPlanTasks } from "../branches/plan-tasks.js";
import { projectWorkspaces } from "../branches/project-workspaces.js";
import { retryKept } from "../branches/retry-kept.js";
import { retryRefusal } from "../branches/retry-refusal.js";
import { withLoopLocks } from "../branches/with-loop-locks.js";
import type { CliIo } from "../cli-io.js";
import { closeMatch } from "../close-match.js";
import { withCommandErrors } from "../command-errors.js";
import type { CommandModule } from "../command-module.js";
import { CLI_EXIT_CODES } from "../exit-codes.js";
import { plural } from "../format/plural.js";
import { PROJECT_OPTIONS, type Project, projectOptionsHelp, withLoopProject } from "../project.js";
import { createStyle } from "../style.js";
import { UsageError } from "../usage-error.js";

const HELP = `Usage: loop branches [list] [options]
       loop branches discard <branch> | --all [options]
       loop branches retry <branch> [options]

The work \`loop run --parallel\` kept on a git branch: a task's work whose merge conflicted
with the main line, or of a task given up after its attempts (its branch is named in the log).

  list      The kept branches, oldest first: branch, task, where the task stands (open,
            given up, done, not in plan), when the work was kept (UTC), its commits beyond
            the main line and the task's title. The default.
  discard   Deletes the kept work on <branch> (--all: every kept branch) for good.
  retry     Runs the task again from the work on <branch> at the next
            \`loop run --parallel\`: its working copy is opened from the branch now, and its
            given-up status and attempts are forgotten in this terminal's state (a
            task_retried decision event). Refused for a task that is done or not in the plan.

discard and retry take the terminal's lock, as \`loop reset\` does: they are refused while a
loop runs on this terminal or in this project (the message names its pid).

Options:
      --plan <file>        The plan the kept work belongs to (default: the config's
                           plans.default_plan, plan.md)
      --all                With discard: every kept branch
      --json               With list: one JSON object { repository, plan, terminalId, kept }
${projectOptionsHelp({ indent: 6, column: 27 })}
  -h, --help               Show this help

Exit codes: 0 done · 1 no such kept branch, a refused retry, a running loop, a git or state
error · 2 usage.

Examples:
  loop branches                                  # what is kept, and for which task
  loop branches retry loop/kept/TASK-3-1a2b3c4d5e6f/1
  loop run --parallel 2                          # TASK-3 goes on from its kept work
  loop branches discard loop/kept/TASK-1-0f9e8d7c6b5a/1
  loop branches discard --all
  loop branches --json | jq -r '.kept[].branch'
`;

const OPTIONS = {
  ...PROJECT_OPTIONS,
  plan: { type: "string" },
  all: { type: "boolean" },
  json: { type: "boolean" },
} as const;

type Values = Readonly<Record<string, string | boolean | undefined>>;

/** What every subcommand works with: the project, its plan and its workspaces. */
interface BranchesContext {
  readonly io: CliIo;
  readonly project: Project;
  readonly config: LoopConfig;
  /** The plan, absolute. */
  readonly planPath: string;
  /** The plan as messages name it. */
  readonly plan: string;
  readonly workspaces: Workspaces;
  readonly values: Values;
  readonly positionals: readonly string[];
}

/** `path` as the user reads it: relative to the project folder when inside it. */
function shown(project: Project, path: string): string {
  const inside = relative(project.cwd, path);
  return inside === "" || inside.startsWith("..") || isAbsolute(inside) ? path : inside;
}

/** Refuses an option its subcommand does not take. */
function refuseOption(subcommand: string, values: Values, name: string): void {
  if (values[name] !== undefined) {
    throw new UsageError(
      `loop branches ${subcommand}: --${name} is for ${name === "all" ? "discard" : "list"}. See \`loop branches --help\`.`,
    );
  }
}

/** The one branch a subcommand names. */
function branchArgument(subcommand: string, positionals: readonly string[]): string {
  const branch = positionals[0];
  if (branch === undefined || branch === "") {
    throw new UsageError(
      `loop branches ${subcommand}: missing branch: name a kept branch (\`loop branches\` lists them), e.g. loop branches ${subcommand} loop/kept/TASK-1/1.`,
    );
  }
  return branch;
}

async function list(context: BranchesContext): Promise<number> {
  const { io, project, values, positionals } = context;
  refuseOption("list", values, "all");
  if (positionals.length > 0) {
    throw new UsageError(
      `loop branches list: unexpected argument ${positionals.join(" ")}. See \`loop branches --help\`.`,
    );
  }
  const kept = await context.workspaces.kept();
  const tasks =
    kept.length === 0 ? [] : await readPlanTasks(context.planPath, context.plan, context.config);
  const read = await createStateManager(project.store)
    .readState(project.terminalId, { repair: false })
    .catch(() => null);
  const rows = keptRows(kept, tasks, read?.state?.failed_tasks ?? []);
  const place = { repository: project.cwd, plan: context.planPath, terminalId: project.terminalId };
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify(keptListJson(rows, place), null, 2)}\n`);
    return CLI_EXIT_CODES.complete;
  }
  if (rows.length === 0) {
    io.stdout.write(
      `No kept work in ${project.cwd}. \`loop run --parallel\` keeps a task's work on a branch when its merge conflicts with the main line, or when the task is given up after its attempts (tasks.max_attempts).\n`,
    );
    return CLI_EXIT_CODES.complete;
  }
  const style = createStyle(io.stdout, io.env);
  io.stdout.write(
    `${style.bold(`Kept work in ${project.cwd} (${rows.length === 1 ? "1 branch" : `${rows.length} branches`}, plan ${context.plan}):`)}\n`,
  );
  io.stdout.write(`${keptListLines(rows, Date.now()).join("\n")}\n`);
  io.stdout.write(
    "`loop branches retry <branch>` runs its task again from that work; `loop branches discard <branch>` deletes it.\n",
  );
  return CLI_EXIT_CODES.complete;
}

async function discard(context: BranchesContext): Promise<number> {
  const { io, project, values, positionals, workspaces } = context;
  refuseOption("discard", values, "json");
  const all = values.all === true;
  if (all && positionals.length > 0) {
    throw new UsageError(
      "loop branches discard: name a branch or give --all, not both. See `loop branches --help`.",
    );
  }
  const named = all ? null : branchArgument("discard", positionals);
  const discarded = await withLoopLocks(
    project,
    context.config,
    context.planPath,
    "discard",
    async () => {
      const kept = await workspaces.kept();
      const chosen = named === null ? kept : [findKept(named, kept, project.cwd)];
      for (const work of chosen) await workspaces.discard(work.branch);
      return chosen;
    },
  );
  if (discarded.length === 0) {
    io.stdout.write(`No kept work in ${project.cwd}: nothing to discard.\n`);
    return CLI_EXIT_CODES.complete;
  }
  for (const work of discarded) {
    io.stdout.write(
      `Discarded ${work.branch} (${work.taskId}, ${plural(work.commits, "commit")}).\n`,
    );
  }
  return CLI_EXIT_CODES.complete;
}

async function retry(context: BranchesContext): Promise<number> {
  const { io, project, values, positionals, workspaces } = context;
  refuseOption("retry", values, "all");
  refuseOption("retry", values, "json");
  const branch = branchArgument("retry", positionals);
  const style = createStyle(io.stderr, io.env);
  const warn = (message: string) =>
    io.stderr.write(`${style.yellow(`loop branches retry: ${message}`)}\n`);
  const done = await withLoopLocks(project, context.config, context.planPath, "retry", async () => {
    const work = findKept(branch, await workspaces.kept(), project.cwd);
    const planText = await readFile(context.planPath, "utf8");
    const tasks: readonly PlanTask[] = await readPlanTasks(
      context.planPath,
      context.plan,
      context.config,
    );
    const refusal = retryRefusal(work, tasks, context.plan);
    if (refusal !== null) throw new LoopError({ message: refusal });
    const task = tasks.find((entry) => entry.id === work.taskId) as PlanTask;
    const retried = await retryKept({
      project,
      config: context.config,
      workspaces,
      work,
      task,
      planText,
      now: Date.now(),
      warn,
    });
    return { work, retried };
  });
  const { work, retried } = done;
  const forgotten = retried.wasGivenUp
    ? ` It is no longer given up on terminal ${project.terminalId} (${plural(retried.attempts, "attempt")} forgotten).`
    : "";
  io.stdout.write(
    `${work.taskId} runs again from ${work.branch}: its working copy is ${shown(project, retried.path)}, on ${retried.branch}.${forgotten}\n`,
  );
  io.stdout.write("`loop run --parallel <n>` goes on with it.\n");
  return CLI_EXIT_CODES.complete;
}

/** The subcommands, by name; `list` when none is given. */
const SUBCOMMANDS: Readonly<Record<string, (context: BranchesContext) => Promise<number>>> = {
  list,
  discard,
  retry,
};

async function branches(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs("branches", args, OPTIONS, 2);
  const [first, ...rest] = positionals;
  const name = first ?? "list";
  const subcommand = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (subcommand === undefined) {
    const suggestion = closeMatch(name, Object.keys(SUBCOMMANDS));
    const hint = suggestion === null ? "" : ` Did you mean ${suggestion}?`;
    throw new UsageError(
      `loop branches: unknown subcommand ${JSON.stringify(name)}.${hint} Use list, discard or retry; see \`loop branches --help\`.`,
    );
  }
  return withLoopProject("branches", io, values, async (project, config) => {
    const planPath = project.resolve(textOption(values.plan) ?? config.plans.default_plan);
    const workspaces = await projectWorkspaces(project, planPath);
    return subcommand({
      io,
      project,
      config,
      planPath,
      plan: shown(project, planPath),
      workspaces,
      values,
      positionals: rest,
    });
  });
}

/** `loop branches`: list, retry and discard the work `loop run --parallel` kept on branches. */
export const branchesCommand: CommandModule = {
  help: HELP,
  run: (args, io) => withCommandErrors("branches", io, () => branches(args, io)),
};

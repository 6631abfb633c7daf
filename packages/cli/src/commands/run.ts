import { readFile, realpath } from "node:fs/promises";
import { skipPermissionsProblem } from "@loop/claude";
import {
  createLoop,
  type LoopConfig,
  type LoopConfigInput,
  LoopError,
  previewIteration,
  type RunLoopOptions,
  type SharedLimits,
  StateLockedError,
} from "@loop/core";
import { createStatusFile, createVerifierLog, filePlan } from "@loop/fs";
import {
  countOption,
  numberOption,
  type ParsedArgs,
  parseCommandArgs,
  textOption,
} from "../args.js";
import type { CliIo } from "../cli-io.js";
import { closeMatch } from "../close-match.js";
import { withCommandErrors } from "../command-errors.js";
import type { CommandModule } from "../command-module.js";
import { errorMessage } from "../error-message.js";
import { describeFileError } from "../file-error.js";
import { openLoopProject, type Project, projectOptionsHelp, STATUS_FILE_PATH } from "../project.js";
import { resetBeforeRun } from "../reset/reset-before-run.js";
import { checkPlanFile } from "../run/check-plan-file.js";
import { checkProjectPaths } from "../run/check-project-paths.js";
import { createConfigReloader } from "../run/config-reloader.js";
import { AGENT_INSTALL_HINTS, createExecutor } from "../run/create-executor.js";
import { printDryRun, printDryRunJson } from "../run/dry-run.js";
import { exitCodeFor } from "../run/exit-code.js";
import { findExecutable } from "../run/find-executable.js";
import { openFleetLimits } from "../run/fleet-limits.js";
import { recordIterationLogs } from "../run/iteration-logs.js";
import { emitJsonEvents, emitJsonResult } from "../run/json-events.js";
import { loopFiles } from "../run/loop-files.js";
import { parallelOptions } from "../run/parallel-options.js";
import { progressLimitation, projectProgress } from "../run/project-progress.js";
import {
  createPlainDisplay,
  createTerminalDisplay,
  resultLine,
  showEvents,
} from "../run/run-display.js";
import { EXECUTOR_NAMES, type ExecutorName, RUN_OPTIONS } from "../run/run-options.js";
import { trackRun } from "../run/run-tracker.js";
import { createStatusWriter, statusOf } from "../run/status-writer.js";
import { stopOnSignals } from "../run/stop-on-signals.js";
import { checkStateOwner } from "../state/check-state-owner.js";
import type { ClosableSharedLimits } from "../store/project-backend.js";
import { createStyle } from "../style.js";
import { UsageError } from "../usage-error.js";

const HELP = `Usage: loop run [plan] [options] [-- agent arguments]

Runs the loop over a plan (plan.md, or a prd.json) with a coding agent until the plan is
complete or a limit stops it. State is saved after every step: run it again to resume.

Arguments:
  plan                     The plan (default: the config's plans.default_plan, plan.md)

Options:
  -e, --executor <name>    claude (default), codex, gemini, aider, amp or command
      --cmd "<command>"    The agent's command line for --executor command, which it implies (no
                           shell: quotes group words; the prompt goes on stdin, or last with
                           --prompt-via argument)
      --prompt-via <how>   stdin (default) or argument, for --executor command
      --bin <path>         The agent's executable, instead of its name on PATH
  -c, --calls <n>          Agent calls per hour (limits.max_calls_per_hour)
  -p, --prompt <file>      Prompt template, e.g. ralph_loop.sh's PROMPT.md (docs/prompts.md)
      --max-iterations <n> Stop after n iterations in all (limits.max_iterations)
      --max-cost <usd>     Stop once the agent's reported cost reaches this (limits.max_cost_usd)
      --timeout <minutes>  Stop one agent run after this long (limits.iteration_timeout_minutes)
      --permission-mode <m>
                           Claude Code's --permission-mode (e.g. acceptEdits)
      --dangerously-skip-permissions
                           Claude Code runs every tool unasked (only when given)
      --dry-run            Show the next task, the exact prompt and command; run nothing
      --reset              First reset the state as \`loop reset\` does (breaker, given-up
                           tasks, iterations, session; never the plan), then run
      --json               Machine-readable events on stdout, one JSON object per line
      --parallel <n>       Run up to n tasks at once, each in its own git worktree and branch,
                           merged back one at a time (tasks under a heading ending
                           "(parallel)", prd stories by their dependencies; docs/parallel-runs.md)
      --merge-agent        With --parallel: a conflicting merge goes to the agent to resolve
                           before its task is run again
${projectOptionsHelp({ indent: 6, column: 27 })}
  -h, --help               Show this help

Everything after -- goes to the agent as it is.

Exit codes: 0 complete · 1 error (bad plan or config, state error) · 2 usage ·
3 stopped before complete (a limit, blocked, circuit open…) · 130 aborted (Ctrl+C, SIGTERM,
SIGHUP). Ctrl+C, SIGTERM or SIGHUP (the terminal closed) stops cleanly (the agent is stopped,
state saved); a second one exits at once. So does a reader of the output that goes away
(\`loop run --json | head -1\`): exit code 130.

Examples:
  loop run                                   # plan.md with Claude Code
  loop run plan.md -c 50 --max-cost 5        # at most 50 calls an hour and $5
  loop run -p PROMPT.md --permission-mode acceptEdits
  loop run .claude/plugin/ralph/prd.json --executor codex
  loop run --executor command --cmd "my-agent --yes" --prompt-via argument
  loop run --dry-run                         # what would run next
  loop run --parallel 4 --merge-agent        # four agents at once, conflicts resolved
  loop run --json | jq -c 'select(.type == "task-complete")'
`;

/** The executor `--executor` names; `--cmd` alone means `command`, nothing at all `claude`. */
function executorName(value: string | undefined, cmd: string | undefined): ExecutorName {
  const name = value ?? (cmd === undefined ? "claude" : "command");
  if (!(EXECUTOR_NAMES as readonly string[]).includes(name)) {
    const suggestion = closeMatch(name, EXECUTOR_NAMES);
    const hint = suggestion === null ? "" : ` Did you mean ${suggestion}?`;
    throw new UsageError(
      `loop run: unknown executor ${JSON.stringify(name)}.${hint} Use one of ${EXECUTOR_NAMES.join(", ")}.`,
    );
  }
  return name as ExecutorName;
}

function limitOverrides(values: Readonly<Record<string, string | boolean | undefined>>) {
  const limits: Record<string, number> = {};
  const set = (key: string, value: number | undefined) => {
    if (value !== undefined) limits[key] = value;
  };
  set("max_calls_per_hour", numberOption("run", "calls", values.calls, 1));
  set("max_iterations", numberOption("run", "max-iterations", values["max-iterations"], 1));
  set("max_cost_usd", numberOption("run", "max-cost", values["max-cost"], 0));
  set("iteration_timeout_minutes", numberOption("run", "timeout", values.timeout, 0.01));
  return limits;
}

async function readPromptTemplate(path: string | undefined): Promise<string | null> {
  if (path === undefined) return null;
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const reason = describeFileError(error);
    throw new LoopError({ message: `the prompt file ${path} cannot be read: ${reason}` });
  }
}

/** `loop run`'s command line, parsed. */
interface RunArguments extends ParsedArgs {
  /** The executor it names. */
  readonly name: ExecutorName;
  /** Everything after `--`, for the agent. */
  readonly extraArgs: readonly string[];
  /** The `limits` the options override (`--calls`, `--max-cost`, …). */
  readonly limits: Readonly<Record<string, number>>;
  /** The fleet's shared limits (`fleet.*` of the config), `null` when it sets none. */
  readonly sharedLimits: SharedLimits | null;
}

async function run(args: readonly string[], io: CliIo): Promise<number> {
  const separator = args.indexOf("--");
  const own = separator < 0 ? args : args.slice(0, separator);
  const extraArgs = separator < 0 ? [] : args.slice(separator + 1);
  const parsed = parseCommandArgs("run", own, RUN_OPTIONS, 1);
  const name = executorName(textOption(parsed.values.executor), textOption(parsed.values.cmd));
  // The command line's own mistakes are usage errors, said before anything is opened.
  const limits = limitOverrides(parsed.values);
  const { project, config } = await openLoopProject("run", io, parsed.values);
  let sharedLimits: ClosableSharedLimits | null = null;
  try {
    sharedLimits = await openFleetLimits(project, config, io);
    return await runProject(
      project,
      config,
      { ...parsed, name, extraArgs, limits, sharedLimits },
      io,
    );
  } finally {
    await sharedLimits?.close();
    await project.backend.close();
  }
}

async function runProject(
  project: Project,
  config: LoopConfig,
  { values, positionals, name, extraArgs, limits, sharedLimits }: RunArguments,
  io: CliIo,
): Promise<number> {
  const overrides: LoopConfigInput = Object.keys(limits).length > 0 ? { limits } : {};
  const planPath = project.resolve(positionals[0] ?? config.plans.default_plan);
  await checkPlanFile(planPath, project.cwd);
  await checkProjectPaths(project, config, positionals[0] !== undefined);
  await checkStateOwner(project, planPath);
  await resetBeforeRun(values, project, config, io);
  const promptPath = textOption(values.prompt);
  const template = await readPromptTemplate(
    promptPath === undefined ? undefined : project.resolve(promptPath),
  );
  const json = values.json === true;
  const style = createStyle(io.stderr, io.env);
  const executorOptions = {
    name,
    cmd: textOption(values.cmd),
    bin: textOption(values.bin),
    promptVia: textOption(values["prompt-via"]),
    extraArgs,
    cwd: project.cwd,
    ownFiles: loopFiles(project, config),
    permissionMode: textOption(values["permission-mode"]),
    skipPermissions: values["dangerously-skip-permissions"] === true,
  };
  const executor = createExecutor(executorOptions);
  const workers = countOption("run", "parallel", values.parallel);
  if (values["merge-agent"] === true && workers === undefined) {
    throw new UsageError(
      "loop run: --merge-agent resolves the merges of --parallel; add --parallel <n>.",
    );
  }
  const parallel =
    workers === undefined || workers < 2
      ? undefined
      : await parallelOptions({
          workers,
          project,
          planPath,
          mergeExecutor:
            values["merge-agent"] === true ? createExecutor(executorOptions) : undefined,
        });
  const options: RunLoopOptions = {
    plan: filePlan(planPath),
    executor,
    store: project.store,
    config: overrides,
    loadConfig: createConfigReloader(project),
    terminalId: project.terminalId,
    // Its real path: a project reached through a symlink is the same project.
    projectRoot: await realpath(project.cwd).catch(() => project.cwd),
    prompt: { template, templateFile: promptPath ?? null },
    parallel,
    sharedLimits: sharedLimits ?? undefined,
  };

  if (values["dry-run"] === true) {
    const preview = await previewIteration(options);
    const report = {
      planPath,
      terminalId: project.terminalId,
      cwd: project.cwd,
      preview,
      command: preview.request === null ? null : executor.commandLine(preview.request),
    };
    if (json) printDryRunJson(io.stdout, report);
    else printDryRun(io.stdout, report, createStyle(io.stdout, io.env));
    return 0;
  }

  const agent = executor.commandLine({ prompt: "", sessionId: null }).command;
  if ((await findExecutable(agent, io.env.PATH, project.cwd)) === null) {
    const install = name === "command" ? "install it" : `install it (${AGENT_INSTALL_HINTS[name]})`;
    throw new LoopError({
      message: `the agent's executable \`${agent}\` is not found${agent.includes("/") ? " (or not executable)" : " on PATH"}: ${install}, or name it with --bin <path>.`,
    });
  }
  const refusal = skipPermissionsProblem({
    skipPermissions: name === "claude" && values["dangerously-skip-permissions"] === true,
    uid: process.getuid?.() ?? null,
    isSandbox: io.env.IS_SANDBOX,
  });
  if (refusal !== null) throw new LoopError({ message: refusal });
  const verifierLog = createVerifierLog({ path: project.resolve(config.logging.verifier_log) });
  const controller = new AbortController();
  const display = json
    ? createPlainDisplay({ write: () => undefined })
    : io.stderr.isTTY === true
      ? createTerminalDisplay(io.stderr, style, Date.now)
      : createPlainDisplay(io.stderr);
  const warn = (message: string) => io.stderr.write(`${style.yellow(`loop run: ${message}`)}\n`);
  const logger = project.backend.openLogger({
    decisionLog: project.resolve(config.logging.decision_log),
    onError: (error) => warn(errorMessage(error)),
  });
  const limitation = await progressLimitation(
    projectProgress(project.cwd, loopFiles(project, config)),
  );
  if (limitation !== null) warn(limitation);
  const loop = createLoop({
    ...options,
    logger,
    signal: controller.signal,
    onLoggerError: (error) => warn(`the decision log is not written: ${String(error)}`),
  });
  const context = { terminalId: project.terminalId, planPath };
  const writeStatus = createStatusWriter(
    createStatusFile({ path: project.resolve(STATUS_FILE_PATH) }),
    (error) => warn(`status.json is not written: ${String(error)}`),
  );
  let holdsLock = false;
  loop.on("decision", (event) => {
    holdsLock = true;
    // The config's warnings, at the start of the run where they matter.
    if (event.event === "config_warning" && !json) {
      warn(`config warning: ${event.payload.message}`);
    }
  });
  const view = trackRun(loop, {
    store: project.store,
    terminalId: project.terminalId,
    maxCallsPerHour:
      (limits.max_calls_per_hour as number | undefined) ?? config.limits.max_calls_per_hour,
    now: Date.now,
    onChange: (current) => {
      display.update(current);
      // status.json is the running loop's: a run the lock refuses never writes it.
      if (holdsLock) void writeStatus(statusOf(current, context, Date.now()));
    },
  });
  loop.on("verification", ({ result }) => {
    verifierLog
      .log({ terminalId: project.terminalId, result })
      .catch((error: unknown) => warn(`verifier.log is not written: ${String(error)}`));
  });
  const iterationLogs = recordIterationLogs(loop, { project, config, now: Date.now, warn });
  if (json) emitJsonEvents(loop, io.stdout);
  else showEvents(loop, display, style, Date.now);

  const signals = stopOnSignals(controller, () =>
    display.line(
      style.yellow("stopping: the agent is stopped and state saved (Ctrl+C again to quit at once)"),
    ),
  );
  // Nobody reads the run's output any more (`loop run --json | head -1`): stop as on Ctrl+C
  // rather than spend agent calls nobody sees.
  const reader = (json ? io.stdout : io.stderr).readerGone;
  reader?.addEventListener("abort", () => controller.abort(), { once: true });
  let result: Awaited<ReturnType<typeof loop.run>>;
  try {
    result = await loop.run();
  } finally {
    signals.dispose();
    display.finish();
  }
  const code = exitCodeFor(result);
  if (!StateLockedError.isInstance(result.error)) {
    await writeStatus(
      statusOf(view, context, Date.now(), { reason: result.exitReason, complete: result.complete }),
      { immediately: true },
    );
  }
  await Promise.all([logger.close(), verifierLog.close(), iterationLogs.flush()]);
  if (json) emitJsonResult(io.stdout, result, code);
  else io.stderr.write(`${resultLine(result, style, { config, view, now: Date.now() })}\n`);
  return code;
}

/** `loop run`: runs the loop over a plan with an agent. */
export const runCommand: CommandModule = {
  help: HELP,
  run: (args, io) => withCommandErrors("run", io, () => run(args, io)),
};

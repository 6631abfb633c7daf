import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../config/default-config.js";
import { parseConfig } from "../config/parse-config.js";
import { resolveConfig } from "../config/resolve-config.js";
import * as core from "../index.js";
import { parsePlan } from "../plan/parse-plan.js";
import { analyzeResponse } from "../status/analyze-response.js";
import type { ResponseSignals } from "../status/response-signals.js";
import { checkCircuit, initialCircuitBreakerState, observeIteration } from "./circuit-breaker.js";
import { countsAsCompletionIndicator } from "./completion-indicator.js";
import type { ExitPolicyInput } from "./exit-policy-input.js";
import { checkRateLimit } from "./rate-limiter.js";
import { shouldExit } from "./should-exit.js";
import { initialStopCounters, updateStopCounters } from "./stop-counters.js";
import { selectNextTask } from "./task-selection.js";

// docs/policy.md is written by hand; these tests run its examples and check what it claims.

const doc = readFileSync(new URL("../../../../docs/policy.md", import.meta.url), "utf8");

/**
 * The text of the section under `heading` (e.g. `## Worked example`), up to the next heading
 * of the same or a higher level outside code blocks.
 */
function section(heading: string): string {
  const lines = doc.split("\n");
  const start = lines.indexOf(heading);
  if (start === -1) throw new Error(`docs/policy.md has no "${heading}" heading`);
  const level = heading.indexOf(" ");
  let fenced = false;
  let end = lines.length;
  for (let index = start + 1; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    if (line.startsWith("```")) fenced = !fenced;
    const hashes = /^(#+) /.exec(line)?.[1]?.length;
    if (!fenced && hashes !== undefined && hashes <= level) {
      end = index;
      break;
    }
  }
  return lines.slice(start, end).join("\n");
}

/** The fenced code blocks of `text` in `language`, in order. */
function codeBlocks(text: string, language: string): string[] {
  const pattern = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, "g");
  return [...text.matchAll(pattern)].map((match) => match[1] ?? "");
}

/** The body rows of the first markdown table in `text`, as trimmed cells. */
function tableRows(text: string): string[][] {
  const lines = text.split("\n").filter((line) => line.startsWith("|"));
  return lines.slice(2).map((line) =>
    line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim()),
  );
}

/** A cell or list item's code span: `` `all_tasks_complete` `` → `all_tasks_complete`. */
const code = (text: string): string | null => /`([^`]+)`/.exec(text)?.[1] ?? null;

/** The value at a dotted key path of a config object. */
function configValue(config: unknown, path: string): unknown {
  return path
    .split(".")
    .reduce<unknown>(
      (value, key) =>
        typeof value === "object" && value !== null
          ? (value as Record<string, unknown>)[key]
          : undefined,
      config,
    );
}

/** Runs a TypeScript example of the doc as a CommonJS module; returns its exports. */
function runExample(
  source: string,
  modules: Readonly<Record<string, unknown>>,
  globals: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const exports: Record<string, unknown> = {};
  const require = (id: string): unknown => {
    if (!(id in modules)) throw new Error(`the example imports ${id}, which the test lacks`);
    return modules[id];
  };
  const names = ["require", "exports", ...Object.keys(globals)];
  new Function(...names, outputText)(require, exports, ...Object.values(globals));
  return exports;
}

function signalsWith(overrides: Partial<ResponseSignals>): ResponseSignals {
  return { ...analyzeResponse(""), ...overrides };
}

describe("docs/policy.md: the exit gate", () => {
  const rows = tableRows(section("### The seed's example scenarios"));

  it("has the seed's five scenarios", () => {
    expect(rows.map((row) => row[0])).toEqual(["1", "2", "3", "4", "5"]);
  });

  it.each(rows)("scenario %s gives the outcome the table shows", (...row) => {
    const [, enforcement, requireVerification, indicators, exitSignal, tasksDone, verification] =
      row;
    const done = Number(/^(\d+) of 5$/.exec(tasksDone ?? "")?.[1]);
    const decision = shouldExit({
      config: resolveConfig({
        enforcement: { enabled: enforcement === "true" },
        exit_policy: { require_verification_pass: requireVerification === "true" },
      }),
      tasks: Array.from({ length: 5 }, (_, index) => ({
        id: `TASK-00${index + 1}`,
        done: index < done,
      })),
      planStatus: { exitSignal: exitSignal === "true" },
      verification: verification === "not run" ? null : { passed: verification === "passed" },
      iterations: Math.max(1, Number(indicators)),
      completionIndicators: Number(indicators),
      startedAt: 0,
      now: 60_000,
    });
    const outcome = row[7] ?? "";
    expect(decision.reason).toBe(outcome === "continue" ? null : code(outcome));
  });
});

describe("docs/policy.md: completion indicators", () => {
  it("the seed's sample run is what the code does", () => {
    const config = resolveConfig({});
    const tasks = [
      { id: "TASK-001", done: false },
      { id: "TASK-002", done: false },
    ];
    let indicators = 0;
    const rows = tasks.map((task, index) => {
      task.done = true;
      const exitSignal = index === tasks.length - 1;
      const signals = analyzeResponse(
        `Finished ${task.id}.\n\n---RALPH_STATUS---\nTASKS_COMPLETED_THIS_LOOP: 1\nEXIT_SIGNAL: ${exitSignal}\n---END_RALPH_STATUS---\n`,
      );
      if (countsAsCompletionIndicator({ tasksCompleted: 1, signals })) indicators += 1;
      const decision = shouldExit({
        config,
        tasks,
        signals,
        iterations: index + 1,
        completionIndicators: indicators,
        startedAt: 0,
        now: (index + 1) * 300_000,
      });
      return [
        String(index + 1),
        task.id,
        String(exitSignal),
        String(indicators),
        String(decision.exit),
        decision.reason === null ? "null" : `\`${decision.reason}\``,
      ];
    });
    expect(tableRows(section("## Completion indicators"))).toEqual(rows);
  });
});

describe("docs/policy.md: safety exits", () => {
  const safetySection = section("## Safety exits");
  const rows = tableRows(safetySection);
  const input: ExitPolicyInput = {
    config: DEFAULT_CONFIG,
    tasks: [{ id: "TASK-001", done: false }],
    iterations: 1,
    completionIndicators: 0,
    startedAt: 0,
    now: 0,
  };
  const safetyNames = shouldExit(input)
    .checks.filter((check) => check.kind === "safety")
    .map((check) => check.name);

  it("lists every safety exit in the order shouldExit checks them", () => {
    expect(rows.map((row) => code(row[0] ?? ""))).toEqual(safetyNames);
  });

  it.each(rows.filter((row) => code(row[1] ?? "")?.match(/^[a-z_]+\.[a-z_]+$/)))(
    "%s: the default of its config key is the one shown",
    (_, key, shown) => {
      expect(String(configValue(DEFAULT_CONFIG, code(key ?? "") ?? ""))).toBe(shown);
    },
  );

  it("every limit exits at its threshold, as the examples say", () => {
    const withCost = resolveConfig({ limits: { max_cost_usd: 5 } });
    const counters = (testOnlyStreak: number) => ({
      testOnlyStreak,
      doneSignalStreak: 0,
      questionOnlyStreak: 0,
    });
    expect(shouldExit({ ...input, iterations: 19 }).exit).toBe(false);
    expect(shouldExit({ ...input, iterations: 20 }).reason).toBe("max_iterations");
    expect(shouldExit({ ...input, counters: counters(2) }).exit).toBe(false);
    expect(shouldExit({ ...input, counters: counters(3) }).reason).toBe("test_saturation");
    expect(shouldExit({ ...input, config: withCost, costUsd: 4.99 }).exit).toBe(false);
    expect(shouldExit({ ...input, config: withCost, costUsd: 5 }).reason).toBe("budget_exhausted");
    const disabled = resolveConfig({ stop_when: { test_only_loops: 0 } });
    const decision = shouldExit({ ...input, config: disabled, counters: counters(99) });
    expect(decision.exit).toBe(false);
    expect(decision.checks.find((check) => check.name === "test_saturation")?.required).toBe(false);
  });

  it("the precedence list is the order in which simultaneous exits are reported", () => {
    const start = safetySection.indexOf("**Precedence.**");
    const listed = [...safetySection.slice(start).matchAll(/^\d+\. (.+)$/gm)].map((match) =>
      match[1]?.startsWith("the exit gate") ? "gate" : code(match[1] ?? ""),
    );
    // Every condition at once; then switch them off one by one, in the documented order.
    const everything: ExitPolicyInput = {
      config: resolveConfig({
        limits: { max_cost_usd: 5, max_duration_minutes: 60 },
      }),
      tasks: [{ id: "TASK-001", done: true }],
      planStatus: { exitSignal: true },
      signals: signalsWith({ blocked: true }),
      stories: [{ passes: true }],
      selection: { kind: "none" },
      iterations: 20,
      completionIndicators: 2,
      costUsd: 5,
      startedAt: 0,
      now: 60 * 60_000,
      circuit: "OPEN",
      counters: { testOnlyStreak: 3, doneSignalStreak: 2, questionOnlyStreak: 3 },
      aborted: true,
      wrapUp: { failed: false, filesChanged: 0, tasksAdded: 0, concerns: 0 },
    };
    const switchOff: Record<string, (value: ExitPolicyInput) => ExitPolicyInput> = {
      aborted: (value) => ({ ...value, aborted: false }),
      blocked: (value) => ({ ...value, signals: signalsWith({}) }),
      gate: (value) => ({ ...value, completionIndicators: 0 }),
      plan_complete: (value) => ({ ...value, wrapUp: null }),
      prd_complete: (value) => ({ ...value, stories: null }),
      needs_input: (value) => ({
        ...value,
        counters: {
          ...everything.counters,
          questionOnlyStreak: 0,
          testOnlyStreak: 3,
          doneSignalStreak: 2,
        },
      }),
      circuit_open: (value) => ({ ...value, circuit: "CLOSED" }),
      test_saturation: (value) => ({
        ...value,
        counters: { testOnlyStreak: 0, doneSignalStreak: 2, questionOnlyStreak: 0 },
      }),
      done_signals: (value) => ({
        ...value,
        counters: { testOnlyStreak: 0, doneSignalStreak: 0, questionOnlyStreak: 0 },
      }),
      no_runnable_tasks: (value) => ({ ...value, selection: { kind: "task" } }),
      budget_exhausted: (value) => ({ ...value, costUsd: 1 }),
      time_limit: (value) => ({ ...value, now: 60_000 }),
      max_iterations: (value) => ({ ...value, iterations: 1 }),
    };
    expect(listed).toEqual(Object.keys(switchOff));
    let current = everything;
    for (const name of listed) {
      const expected = name === "gate" ? "all_tasks_complete" : name;
      expect(shouldExit(current).reason).toBe(expected);
      const off = switchOff[name ?? ""];
      if (off === undefined) throw new Error(`no way to switch off ${name}`);
      current = off(current);
    }
    expect(shouldExit(current).reason).toBeNull();
  });
});

describe("docs/policy.md: circuit breaker and rate limiter", () => {
  const thresholds = {
    noProgressLoops: DEFAULT_CONFIG.circuit_breaker.no_progress_loops,
    sameErrorLoops: DEFAULT_CONFIG.circuit_breaker.same_error_loops,
    permissionDenialLoops: DEFAULT_CONFIG.circuit_breaker.permission_denial_loops,
    cooldownMs: DEFAULT_CONFIG.circuit_breaker.cooldown_minutes * 60_000,
  };
  const idle = {
    progress: false,
    errorFingerprint: null,
    permissionDenied: false,
    questionOnly: false,
  };

  it("no_progress_loops: 5 goes CLOSED, CLOSED, HALF_OPEN, HALF_OPEN, OPEN", () => {
    let breaker = initialCircuitBreakerState();
    const states: string[] = [];
    for (let iteration = 1; iteration <= 5; iteration += 1) {
      breaker = observeIteration(breaker, idle, thresholds, iteration);
      states.push(breaker.state);
    }
    expect(states).toEqual(["CLOSED", "CLOSED", "HALF_OPEN", "HALF_OPEN", "OPEN"]);
    expect(section("## The circuit breaker")).toContain(
      "`CLOSED`, `CLOSED`,\n`HALF_OPEN`, `HALF_OPEN`, `OPEN`",
    );
    expect(shouldExit({ ...baseInput(), circuit: breaker.state }).reason).toBe("circuit_open");
    expect(checkCircuit(breaker, 5 + thresholds.cooldownMs, thresholds).breaker.state).toBe(
      "HALF_OPEN",
    );
  });

  it("a question-only iteration is neutral", () => {
    const twice = observeIteration(
      observeIteration(initialCircuitBreakerState(), idle, thresholds, 1),
      idle,
      thresholds,
      2,
    );
    const asked = observeIteration(twice, { ...idle, questionOnly: true }, thresholds, 3);
    expect(asked.noProgressStreak).toBe(twice.noProgressStreak);
  });

  it("100 calls since 10:00 UTC: a call at 10:10 waits until 11:00 (3,000,000 ms)", () => {
    const ten = Date.UTC(2026, 2, 14, 10, 0, 0);
    const decision = checkRateLimit(
      { windowStart: ten, callsMade: 100 },
      ten + 10 * 60_000,
      DEFAULT_CONFIG.limits.max_calls_per_hour,
    );
    expect(decision).toMatchObject({ allowed: false, resetAt: ten + 3_600_000, waitMs: 3_000_000 });
  });
});

function baseInput(): ExitPolicyInput {
  return {
    config: DEFAULT_CONFIG,
    tasks: [{ id: "TASK-001", done: false }],
    iterations: 1,
    completionIndicators: 0,
    startedAt: 0,
    now: 0,
  };
}

describe("docs/policy.md: the worked example", () => {
  const worked = section("## Worked example");
  const [configYaml = "", ...restYaml] = codeBlocks(worked, "yaml");
  const [planMarkdown = "", ...restMarkdown] = codeBlocks(worked, "markdown");
  const [answer = "", printed = "", ...restText] = codeBlocks(worked, "text");
  const [program = "", ...restTs] = codeBlocks(worked, "ts");

  it("has one config, one plan, one answer, one program and its output", () => {
    expect([restYaml, restMarkdown, restText, restTs]).toEqual([[], [], [], []]);
  });

  it("prints exactly the checks the doc shows", () => {
    const lines: string[] = [];
    const capture = { log: (...values: unknown[]) => lines.push(values.map(String).join(" ")) };
    runExample(
      program,
      { "@loop/core": core },
      {
        configYaml,
        planMarkdown,
        answer,
        console: capture,
      },
    );
    expect(`${lines.join("\n")}\n`).toBe(printed);
  });

  // The same input, to check what the doc says would end the loop.
  const config = parseConfig(configYaml);
  const plan = parsePlan(planMarkdown);
  const startedAt = Date.parse("2026-03-14T10:00:00Z");
  const input: ExitPolicyInput = {
    config,
    tasks: plan.tasks,
    planStatus: plan.status,
    signals: analyzeResponse(answer),
    verification: null,
    selection: selectNextTask({
      tasks: plan.tasks,
      attempts: {},
      failedTaskIds: [],
      maxAttempts: config.tasks.max_attempts,
    }),
    iterations: 3,
    completionIndicators: 2,
    costUsd: 1.84,
    startedAt,
    now: startedAt + 25 * 60_000,
    circuit: "CLOSED",
    counters: initialStopCounters(),
  };
  const finished = parsePlan(planMarkdown.replace("- [ ] TASK-003", "- [x] TASK-003"));

  it("goes on, and picks TASK-003 next", () => {
    expect(shouldExit(input)).toMatchObject({ exit: false, reason: null });
    expect(input.selection).toMatchObject({ kind: "task", task: { id: "TASK-003" }, attempt: 1 });
    expect(plan.tasks.find((task) => task.id === "TASK-004")?.optional).toBe(true);
  });

  it("ends with all_tasks_complete once TASK-003 is done, EXIT_SIGNAL is true, verification passes", () => {
    const signals = analyzeResponse(
      "Login endpoint done.\n\n---RALPH_STATUS---\nSTATUS: COMPLETE\nEXIT_SIGNAL: true\n---END_RALPH_STATUS---\n",
    );
    const decision = shouldExit({
      ...input,
      tasks: finished.tasks,
      signals,
      verification: { passed: true },
      iterations: 4,
      completionIndicators: 3,
    });
    expect(decision.reason).toBe("all_tasks_complete");
    expect(
      shouldExit({
        ...input,
        tasks: finished.tasks,
        signals,
        iterations: 4,
        completionIndicators: 3,
      }).exit,
    ).toBe(false);
  });

  it("ends with done_signals after two done answers while verification keeps failing", () => {
    const done = analyzeResponse(
      "Everything is finished.\n\n---RALPH_STATUS---\nSTATUS: COMPLETE\n---END_RALPH_STATUS---\n",
    );
    let counters = initialStopCounters();
    const reasons: (string | null)[] = [];
    for (const iteration of [4, 5]) {
      counters = updateStopCounters(counters, {
        signals: done,
        tasksCompleted: 0,
        filesChanged: 0,
      });
      reasons.push(
        shouldExit({
          ...input,
          tasks: finished.tasks,
          signals: done,
          verification: { passed: false },
          iterations: iteration,
          completionIndicators: iteration - 1,
          counters,
        }).reason,
      );
    }
    expect(reasons).toEqual([null, "done_signals"]);
  });

  it("ends at $5.00, at 11:00 UTC, or after iteration 10", () => {
    expect(shouldExit({ ...input, costUsd: 4.99 }).exit).toBe(false);
    expect(shouldExit({ ...input, costUsd: 5 }).reason).toBe("budget_exhausted");
    expect(shouldExit({ ...input, now: Date.parse("2026-03-14T10:59:59Z") }).exit).toBe(false);
    expect(shouldExit({ ...input, now: Date.parse("2026-03-14T11:00:00Z") }).reason).toBe(
      "time_limit",
    );
    expect(shouldExit({ ...input, iterations: 9 }).exit).toBe(false);
    expect(shouldExit({ ...input, iterations: 10 }).reason).toBe("max_iterations");
  });
});

describe("docs/policy.md: writing and testing your own policy", () => {
  const [policySource = "", testSource = "", ...rest] = codeBlocks(
    section("## Writing and testing your own policy"),
    "ts",
  );

  it("the policy and its vitest tests run and pass as written", () => {
    expect(rest).toEqual([]);
    const policy = runExample(policySource, { "@loop/core": core });
    expect(typeof policy.stopAfterFailedTasks).toBe("function");
    const ran: string[] = [];
    const fakeVitest = {
      describe: (_name: string, body: () => void) => body(),
      it: (name: string, body: () => void) => {
        body();
        ran.push(name);
      },
      expect,
    };
    runExample(testSource, { "@loop/core": core, vitest: fakeVitest, "./my-policy.js": policy });
    expect(ran).toEqual([
      "goes on with two failed tasks",
      "stops at the third failed task and says why",
      "keeps the built-in exits and their reasons",
    ]);
  });
});

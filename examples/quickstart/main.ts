/**
 * Quickstart: read the example plan and config with @loop/core and print what a loop would see —
 * the tasks in order, the RALPH_STATUS section, the requirements verification checks, and the
 * exit policy. Run it with `pnpm demo` from the repository root.
 */
import { readFileSync } from "node:fs";
import { checkConfig, LoopError, parseConfig, parsePlan, type Task } from "@loop/core";

const here = new URL("./", import.meta.url);
const planFile = "plan.md";
const configFile = ".claude/loop/config.yaml";

function read(path: string): string {
  return readFileSync(new URL(path, here), "utf8");
}

function describeTask(task: Task): string {
  const box = task.done ? "[x]" : "[ ]";
  const indent = "  ".repeat(task.depth + 1);
  const notes = [
    task.optional ? "optional" : null,
    task.parentId ? `part of ${task.parentId}` : null,
  ]
    .filter((note) => note !== null)
    .join(", ");
  return `${indent}${box} ${task.id.padEnd(9)} ${task.title}${notes ? `  (${notes})` : ""}  — ${planFile}:${task.line}`;
}

try {
  const plan = parsePlan(read(planFile), { file: planFile });
  const config = parseConfig(read(configFile), { file: configFile });

  const required = plan.tasks.filter((task) => !task.optional);
  const open = required.filter((task) => !task.done);
  console.log(`Plan ${planFile}: ${plan.tasks.length} tasks, ${open.length} required tasks open`);
  for (const task of plan.tasks) console.log(describeTask(task));

  const next = open[0];
  console.log(`\nNext task the loop would run: ${next ? `${next.id} ${next.title}` : "none"}`);

  if (plan.status) {
    const { exitSignal, completionIndicators, currentTask } = plan.status;
    console.log(
      `RALPH_STATUS: EXIT_SIGNAL=${exitSignal}, completion_indicators=${completionIndicators}, current_task=${currentTask}`,
    );
  }

  console.log(`\nRequirements checked by verification (${plan.requirements.length}):`);
  for (const requirement of plan.requirements) {
    console.log(`  - [${requirement.section}] ${requirement.text}`);
  }

  const policy = config.exit_policy;
  console.log(
    `\nExit gate (${config.enforcement.enabled ? "full" : "minimal"} enforcement): ` +
      `completion_indicators >= ${policy.min_completion_indicators}` +
      `${policy.require_exit_signal ? " AND EXIT_SIGNAL" : ""}` +
      `${policy.require_all_tasks_complete ? " AND all tasks complete" : ""}` +
      `${policy.require_verification_pass ? " AND verification passed" : ""}`,
  );
  console.log(
    `Safety limits: ${config.limits.max_iterations} iterations, ${config.limits.max_calls_per_hour} calls/hour, ` +
      `${config.tasks.max_attempts} attempts per task, circuit opens after ${config.circuit_breaker.no_progress_loops} iterations without progress`,
  );
  for (const warning of checkConfig(config)) console.log(`warning: ${warning.message}`);
} catch (error) {
  if (LoopError.isInstance(error)) {
    console.error(error.message);
    process.exitCode = 1;
  } else {
    throw error;
  }
}

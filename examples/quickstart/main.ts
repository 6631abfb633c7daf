/**
 * Quickstart: a full loop over `plan.md` with a deterministic demo agent (no AI needed), on the
 * file adapters in a temporary folder. Each iteration and the exit reason are printed; the
 * state, decision log and edited plan stay in the folder for you to read.
 *
 * Run it with `pnpm demo` from the repository root.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLoop, LoopError } from "@loop/core";
import { createFileStateStore, createJsonlLogger, filePlan, loadConfigFile } from "@loop/fs";
import { createDemoExecutor } from "./demo-executor.js";

const here = new URL("./", import.meta.url).pathname;
const folder = mkdtempSync(join(tmpdir(), "loop-quickstart-"));
mkdirSync(join(folder, ".claude/loop"), { recursive: true });
copyFileSync(join(here, "plan.md"), join(folder, "plan.md"));
copyFileSync(join(here, ".claude/loop/config.yaml"), join(folder, ".claude/loop/config.yaml"));

const plan = filePlan(join(folder, "plan.md"));
const configPath = join(folder, ".claude/loop/config.yaml");
const config = await loadConfigFile(configPath);
const loop = createLoop({
  plan,
  executor: createDemoExecutor(plan),
  store: createFileStateStore({ root: join(folder, "state") }),
  logger: createJsonlLogger({ path: join(folder, config.logging.decision_log) }),
  loadConfig: () => loadConfigFile(configPath),
  terminalId: "quickstart",
});

console.log(`Running the quickstart loop in ${folder}\n`);
loop.on("iteration-start", ({ iteration, task, kind }) => {
  console.log(
    `iteration ${iteration}: ${kind === "task" ? `${task?.id} ${task?.title}` : "wrap-up"}`,
  );
});
loop.on("iteration-end", ({ tasksCompleted, decision }) => {
  const unmet = decision.checks.filter(
    (check) => check.kind === "gate" && check.required && !check.met,
  );
  console.log(`  completed: ${tasksCompleted.join(", ") || "nothing"}`);
  if (!decision.exit) console.log(`  goes on: ${unmet.map((check) => check.detail).join("; ")}`);
});

const result = await loop.run();
console.log(
  `\nexit: ${result.exitReason} (complete: ${result.complete}) after ${result.iterations} iterations`,
);
console.log(`tasks completed: ${result.tasksCompleted.join(", ")}`);
if (result.error) {
  console.error(LoopError.isInstance(result.error) ? result.error.message : result.error);
  process.exitCode = 1;
} else if (result.exitReason !== "all_tasks_complete") {
  process.exitCode = 1;
}
console.log(`\nThe plan after the loop (${join(folder, "plan.md")}):\n`);
console.log(readFileSync(join(folder, "plan.md"), "utf8"));

#!/usr/bin/env node
// A stand-in coding agent for the README's CLI tour, so the tour runs without any AI:
//   loop run --executor command --cmd "node examples/cli-tour/demo-agent.mjs"
// It reads the loop's prompt on standard input, "implements" the task the prompt names by
// checking its box in the plan, and ends its answer with a RALPH_STATUS block — EXIT_SIGNAL true
// once no open box is left. A real agent would write code here.
import { readFileSync, writeFileSync } from "node:fs";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const prompt = Buffer.concat(chunks).toString("utf8");

const planPath = /The plan is `([^`]+)`/.exec(prompt)?.[1];
if (planPath === undefined) {
  console.error("demo-agent: the prompt names no plan");
  process.exit(2);
}
const taskId = /Your task is `([^`]+)`/.exec(prompt)?.[1];
let plan = readFileSync(planPath, "utf8");
if (taskId === undefined) {
  // A wrap-up iteration: verify the work (here: nothing to do) and say so.
} else {
  const escaped = taskId.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  plan = plan.replace(new RegExp(`^(\\s*[-*] )\\[ \\]( ${escaped}\\b)`, "m"), "$1[x]$2");
}
const finished = !/^\s*[-*] \[ \]\s+[A-Z][A-Z0-9]*-\d+/m.test(plan);
if (finished) plan = plan.replace(/^(\s*[-*]\s*)?EXIT_SIGNAL: false$/m, "$1EXIT_SIGNAL: true");
writeFileSync(planPath, plan);

console.log(
  [
    taskId === undefined ? "Verified the work: every task is done." : `Implemented ${taskId}.`,
    "",
    "---RALPH_STATUS---",
    `STATUS: ${finished ? "COMPLETE" : "IN_PROGRESS"}`,
    `TASKS_COMPLETED_THIS_LOOP: ${taskId === undefined ? 0 : 1}`,
    "FILES_MODIFIED: 1",
    "TESTS_STATUS: PASSING",
    "WORK_TYPE: IMPLEMENTATION",
    `EXIT_SIGNAL: ${finished}`,
    `RECOMMENDATION: ${finished ? "All tasks are done." : "Continue with the next task."}`,
    "---END_RALPH_STATUS---",
  ].join("\n"),
);

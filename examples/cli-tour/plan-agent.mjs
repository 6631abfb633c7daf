// The work of a stand-in agent over a markdown plan, shared by the tour's demo agent and the
// tests' fake `claude`: check the box of the task the loop's prompt names (in a wrap-up, every
// open box: the requirements hold), set the plan's EXIT_SIGNAL once no open box is left, and
// answer with a RALPH_STATUS block.
import { readFileSync, writeFileSync } from "node:fs";

/**
 * Does one iteration of the loop's prompt on the plan it names.
 *
 * @param {string} prompt - the loop's prompt (`The plan is \`…\``, `Your task is \`…\``).
 * @returns {string} the agent's answer, ending with its RALPH_STATUS block.
 * @throws {Error} when the prompt names no plan.
 */
export function workOnPlan(prompt) {
  const planPath = /The plan is `([^`]+)`/.exec(prompt)?.[1];
  if (planPath === undefined) throw new Error("the prompt names no plan");
  const taskId = /Your task is `([^`]+)`/.exec(prompt)?.[1];
  let plan = readFileSync(planPath, "utf8");
  if (taskId === undefined) {
    // A wrap-up iteration (no task): verify the work; here every requirement holds.
    plan = plan.replace(/^(\s*[-*] )\[ \]/gm, "$1[x]");
  } else {
    const escaped = taskId.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    plan = plan.replace(new RegExp(`^(\\s*[-*] )\\[ \\]( ${escaped}\\b)`, "m"), "$1[x]$2");
  }
  const finished = !/^\s*[-*] \[ \]/m.test(plan);
  if (finished) plan = plan.replace(/^(\s*[-*]\s*)?EXIT_SIGNAL: false$/m, "$1EXIT_SIGNAL: true");
  writeFileSync(planPath, plan);
  return [
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
  ].join("\n");
}

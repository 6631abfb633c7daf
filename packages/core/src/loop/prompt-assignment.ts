import type { Task } from "../plan/task.js";
import type { PromptContext } from "./prompt-context.js";
import { blockQuote, codeSpan, singleLine } from "./prompt-markdown.js";

/** The rules of a task iteration. */
const TASK_RULES = `- Work on this task only. Do not start another one, not even a small one: the loop gives you the next task in the next iteration.
- Check its box in the plan (\`[ ]\` to \`[x]\`) only when the task is done and verified: its tests pass. Never check a box otherwise, and never check another task's box.
- If the task is not done by the end of this iteration, leave its box unchecked and say in \`RECOMMENDATION\` what is left.
- Keep the plan's \`## RALPH_STATUS\` section honest: \`EXIT_SIGNAL: true\` there only when every task of the plan is checked and verified, \`false\` otherwise.
- If you cannot go on without a human (missing access, a decision only the user can make), stop and report \`STATUS: BLOCKED\` with the reason.`;

/** The whole assignment of a wrap-up iteration. */
const WRAP_UP = `## Wrap-up

The loop found no unchecked task box in the plan, so this iteration is the wrap-up. Before the loop may stop, verify the work against the plan:

- Check each requirement of the plan (its Acceptance Criteria, Success Metrics and Constraints sections) against the code: run the tests, try what the requirements describe. Mark each one that holds \`[x]\` in the plan.
- Fix whatever is missing or broken. Do not start new features: do only what the plan asks for.
- Only when every requirement holds and the tests pass, set \`EXIT_SIGNAL: true\` in the plan's \`## RALPH_STATUS\` section and in your report. Otherwise keep both \`false\` and say in \`RECOMMENDATION\` what is left.
- If you cannot go on without a human, stop and report \`STATUS: BLOCKED\` with the reason.`;

/** The "Your task" section for `task`. */
function taskAssignment(task: Task): string {
  const where = task.line >= 1 ? `, on line ${task.line} of the plan` : "";
  const title = singleLine(task.title);
  return [
    "## Your task",
    `Your task is ${codeSpan(task.id)}${where}:`,
    blockQuote(title === "" ? "(no title)" : title),
    TASK_RULES,
  ].join("\n\n");
}

/**
 * The `{{assignment}}` section: the one task of this iteration with its rules, or the wrap-up
 * instructions. The task's id and title are data, quoted literally.
 *
 * @param context - the iteration's context.
 * @returns the section, without a final line break.
 * @throws {TypeError} when `kind` is `task` and there is no task.
 */
export function promptAssignment(context: PromptContext): string {
  if (context.kind === "wrap_up") return WRAP_UP;
  if (context.task === null) {
    throw new TypeError('A prompt of kind "task" needs a task; use kind "wrap_up" for none.');
  }
  return taskAssignment(context.task);
}

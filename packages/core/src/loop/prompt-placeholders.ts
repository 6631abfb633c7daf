/**
 * The placeholders a prompt template may use, each written `{{name}}` (spaces inside the
 * braces allowed), with what it is replaced by. A value is inserted as is and never read as a
 * template itself. Values that do not apply are empty (`task_id` in a wrap-up).
 */
export const PROMPT_PLACEHOLDERS = Object.freeze({
  kind: "`task` or `wrap_up`",
  iteration: "the iteration number, from 1",
  attempt: "which attempt at this task this is, from 1",
  max_attempts: "attempts allowed per task (`tasks.max_attempts`)",
  plan_path: "the plan's path or name",
  plan_text: "the plan's text as the loop read it this iteration",
  task_id: "the task's id (`TASK-001`); empty in a wrap-up",
  task_title: "the task's title; empty in a wrap-up",
  previous_failure: "why the last attempt at this task failed; empty when unknown",
  completion_promise: "the completion promise text; empty when none is configured",
  assignment:
    "the work of this iteration: the task and its rules, or the wrap-up instructions (a section)",
  context:
    "the sections that apply this iteration: retry and last failure, unanswered questions, user concerns, unmet requirements, completion promise; empty when none applies",
  status_block: "the `---RALPH_STATUS---` block template, unfenced",
  loop_instructions:
    "everything the loop adds to a template without placeholders: headless rules, assignment, context and report",
} as const);

/** The name of one placeholder of {@link PROMPT_PLACEHOLDERS}. */
export type PromptPlaceholder = keyof typeof PROMPT_PLACEHOLDERS;

/** The placeholder names, in {@link PROMPT_PLACEHOLDERS} order. */
export const PROMPT_PLACEHOLDER_NAMES: readonly PromptPlaceholder[] = Object.freeze(
  Object.keys(PROMPT_PLACEHOLDERS).filter(isPromptPlaceholder),
);

/** Whether `name` is a placeholder name (exactly, case included). */
export function isPromptPlaceholder(name: string): name is PromptPlaceholder {
  return Object.hasOwn(PROMPT_PLACEHOLDERS, name);
}

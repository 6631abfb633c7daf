import { promptAssignment } from "./prompt-assignment.js";
import type { PromptContext } from "./prompt-context.js";
import { promptContextSections } from "./prompt-context-sections.js";
import { STATUS_BLOCK_TEMPLATE } from "./prompt-status-block.js";
import { DEFAULT_PROMPT_TEMPLATE, LOOP_INSTRUCTIONS_TEMPLATE } from "./prompt-template.js";
import { parsePromptTemplate } from "./prompt-template-parser.js";
import { type PromptValues, renderTemplate } from "./render-template.js";

/** Options of {@link buildPrompt}. */
export interface BuildPromptOptions {
  /**
   * The template, as text (the caller reads a `PROMPT.md` file). `null` or absent:
   * {@link DEFAULT_PROMPT_TEMPLATE}. A template without any placeholder is used as is, with the
   * loop instructions appended.
   */
  readonly template?: string | null | undefined;
  /** The template's file name (`PROMPT.md`), used in error messages. */
  readonly templateFile?: string | undefined;
}

const defaultTemplate = parsePromptTemplate(DEFAULT_PROMPT_TEMPLATE);
const loopInstructionsTemplate = parsePromptTemplate(LOOP_INSTRUCTIONS_TEMPLATE);

/** Throws a `RangeError` unless `value` is a whole number, 1 or more. */
function checkCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a whole number, 1 or more; got ${value}`);
  }
}

/** The value of every placeholder for `context`. */
function promptValues(context: PromptContext): PromptValues {
  const values: PromptValues = {
    kind: context.kind,
    iteration: String(context.iteration),
    attempt: String(context.attempt),
    max_attempts: String(context.maxAttempts),
    plan_path: context.plan.path,
    plan_text: context.plan.text,
    task_id: context.task?.id ?? "",
    task_title: context.task?.title ?? "",
    previous_failure: context.previousFailure ?? "",
    completion_promise: context.completionPromise ?? "",
    assignment: promptAssignment(context),
    context: promptContextSections(context),
    status_block: STATUS_BLOCK_TEMPLATE,
    loop_instructions: "",
  };
  return { ...values, loop_instructions: renderTemplate(loopInstructionsTemplate, values) };
}

/** A line break at the end of a text. */
const FINAL_LINE_BREAK = /(?:\r\n|\n|\r)$/;

/**
 * `text` followed by a blank line, whatever it ended with, using its own line ending (`\r\n`
 * when it has one, else `\n`); `""` stays `""`.
 */
function withBlankLineAfter(text: string): string {
  if (text === "") return text;
  const lineEnding = text.includes("\r\n") ? "\r\n" : "\n";
  const lastLine = text.replace(FINAL_LINE_BREAK, "");
  if (lastLine === text) return `${text}${lineEnding}${lineEnding}`;
  let end = lastLine.length;
  while (end > 0 && (lastLine[end - 1] === " " || lastLine[end - 1] === "\t")) end -= 1;
  const beforeLastLine = lastLine.slice(0, end);
  if (beforeLastLine === "" || FINAL_LINE_BREAK.test(beforeLastLine)) return text;
  return `${text}${lineEnding}`;
}

/**
 * Builds the prompt of one iteration: the template (the default one, or the caller's) filled
 * in from `context`.
 *
 * The default prompt tells the agent that it runs headless (nobody answers questions: decide,
 * note the decision, go on), gives the plan's path and the one task of this iteration (or the
 * wrap-up: verify the finished plan against its requirements), when to check the task's box
 * and to set `EXIT_SIGNAL`, and to end its answer with the `---RALPH_STATUS---` block. The
 * sections that apply follow: the retry notice with the last failure, the questions nobody
 * will answer, the user's concerns, the unmet requirements, the completion promise.
 *
 * A custom template uses `{{name}}` placeholders (`PROMPT_PLACEHOLDERS`). A template without
 * any placeholder (an old `PROMPT.md`) is used as is, followed by a blank line and the loop
 * instructions (`LOOP_INSTRUCTIONS_TEMPLATE`). Texts from the context are data: they are
 * inserted literally and never read as a template. Pure: no I/O.
 *
 * @param context - the iteration: kind, task, plan, counters, and what to tell the agent.
 * @param options - the template, as text, and its file name for error messages.
 * @returns the prompt.
 * @throws {PromptTemplateError} when the template has an unknown placeholder (with its line,
 * column and the nearest valid name).
 * @throws {TypeError} when `kind` is `task` and `task` is `null`.
 * @throws {RangeError} when `iteration`, `attempt` or `maxAttempts` is not a whole number ≥ 1.
 * @example
 * ```ts
 * const { tasks } = parsePlan(planText);
 * const prompt = buildPrompt({
 *   kind: "task",
 *   task: tasks[0] ?? null,
 *   plan: { path: "plan.md", text: planText },
 *   iteration: 4,
 *   attempt: 2,
 *   maxAttempts: 3,
 *   unmetRequirements: [],
 *   concerns: [],
 *   unansweredQuestions: ["Should I use PostgreSQL or SQLite?"],
 *   previousFailure: "timed out after 15 minutes",
 *   completionPromise: null,
 * });
 * // With the caller's PROMPT.md (read by the caller):
 * buildPrompt(context, { template: promptMarkdown, templateFile: "PROMPT.md" });
 * ```
 */
export function buildPrompt(context: PromptContext, options: BuildPromptOptions = {}): string {
  checkCount("iteration", context.iteration);
  checkCount("attempt", context.attempt);
  checkCount("maxAttempts", context.maxAttempts);
  const template =
    options.template === null || options.template === undefined
      ? defaultTemplate
      : parsePromptTemplate(options.template, { file: options.templateFile });
  const values = promptValues(context);
  if (!template.usesPlaceholders) {
    return `${withBlankLineAfter(template.text)}${values.loop_instructions}`;
  }
  return renderTemplate(template, values);
}

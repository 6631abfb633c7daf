import type { Concern } from "../verify/user-concerns.js";
import type { PromptContext } from "./prompt-context.js";
import { blockQuote, codeSpan, quotedList, singleLine } from "./prompt-markdown.js";

/** "this task" or "the wrap-up": what an attempt is an attempt at. */
function subject(context: PromptContext): string {
  return context.kind === "task" ? "this task" : "the wrap-up";
}

/** The retry section, from the second attempt on. */
function retrySection(context: PromptContext): string | null {
  if (context.attempt <= 1) return null;
  const failure = blockQuote(context.previousFailure ?? "");
  const last =
    context.attempt >= context.maxAttempts
      ? ` This is the last attempt: if it fails too, the loop marks ${subject(context)} failed and moves on.`
      : "";
  return [
    `## Attempt ${context.attempt} of ${context.maxAttempts}`,
    failure === ""
      ? `The last attempt at ${subject(context)} did not get it done; the reason is unknown.`
      : `The last attempt at ${subject(context)} failed:\n\n${failure}`,
    `Find out why before you try again, and do not repeat what failed.${last}`,
  ].join("\n\n");
}

/** The section listing the questions nobody will answer. */
function questionsSection(context: PromptContext): string | null {
  const questions = quotedList(context.unansweredQuestions);
  if (questions === "") return null;
  return [
    "## Unanswered questions",
    "In the last iteration you asked the following. Nobody will answer:",
    questions,
    "Decide each one yourself, write the decision and your reason in the plan's Notes section, and go on. Do not ask again.",
  ].join("\n\n");
}

/** One concern as a list item text: `issue: The login page is not working.` */
function concernText(concern: Concern): string {
  return `${concern.kind}: ${singleLine(concern.text)}`;
}

/** The section listing the user's unresolved concerns. */
function concernsSection(context: PromptContext): string | null {
  const concerns = quotedList(context.concerns.map(concernText));
  if (concerns === "") return null;
  return [
    "## User concerns",
    "The user raised these concerns, and they are not resolved:",
    concerns,
    "Address each one: fix what it points at, then note in the plan's Notes section how you resolved it.",
  ].join("\n\n");
}

/** The section listing the requirements the last verification found unmet. */
function requirementsSection(context: PromptContext): string | null {
  const requirements = quotedList(context.unmetRequirements);
  if (requirements === "") return null;
  const action =
    context.kind === "wrap_up"
      ? "Make each one hold, then mark it `[x]` in the plan."
      : "Where your task touches one of them, make sure it holds. Mark a requirement `[x]` in the plan only when it holds.";
  return [
    "## Unmet requirements",
    "The last verification found these requirements of the plan unmet:",
    requirements,
    action,
  ].join("\n\n");
}

/** The section telling how to output the completion promise. */
function promiseSection(context: PromptContext): string | null {
  if (context.completionPromise === null || singleLine(context.completionPromise) === "") {
    return null;
  }
  const tag = codeSpan(`<promise>${singleLine(context.completionPromise)}</promise>`);
  return [
    "## Completion promise",
    `When the whole plan is done and verified, and only then, write ${tag} on a line of its own at the end of your answer, just before the report block. Never write it to leave the loop early, and never when you are stuck.`,
  ].join("\n\n");
}

/**
 * The `{{context}}` placeholder's value: the sections that apply this iteration, in this
 * order: the retry notice with the last failure (attempt 2 and later), the unanswered
 * questions, the user's concerns, the unmet requirements, the completion promise. Every text
 * from outside (failure, questions, concerns, requirements) is quoted literally.
 *
 * @param context - the iteration's context.
 * @returns the sections separated by blank lines, without a final line break; `""` when none
 * applies.
 */
export function promptContextSections(context: PromptContext): string {
  return [
    retrySection(context),
    questionsSection(context),
    concernsSection(context),
    requirementsSection(context),
    promiseSection(context),
  ]
    .filter((section) => section !== null)
    .join("\n\n");
}

import { parsePromptTemplate } from "./prompt-template-parser.js";
import type { RunLoopOptions } from "./run-loop-options.js";

/**
 * Parses the loop's prompt template, if it has one, before anything runs, so a broken template is
 * one error at the start (with `file:line:column` positions when `templateFile` names the file)
 * rather than a failure at the first iteration.
 *
 * @param prompt - the loop's prompt options.
 * @throws {PromptTemplateError} listing every problem of the template.
 */
export function checkPromptTemplate(prompt: RunLoopOptions["prompt"]): void {
  const template = prompt?.template;
  if (template === null || template === undefined) return;
  parsePromptTemplate(template, { file: prompt?.templateFile ?? undefined });
}

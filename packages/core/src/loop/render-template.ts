import type { PromptPlaceholder } from "./prompt-placeholders.js";
import type { ParsedPromptTemplate } from "./prompt-template-parser.js";

/** The value of every placeholder. */
export type PromptValues = Readonly<Record<PromptPlaceholder, string>>;

/** The rest of a line (spaces, then its line break) at the start of a text. */
const REST_OF_LINE = /^[ \t]*(?:\r\n|\n|\r)?/;

/** A blank line at the start of a text. */
const BLANK_LINE = /^[ \t]*(?:\r\n|\n|\r)/;

/** `text` without the spaces and tabs it ends with. */
function withoutTrailingIndent(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === " " || text[end - 1] === "\t")) end -= 1;
  return text.slice(0, end);
}

/**
 * Fills a parsed template in. Each placeholder is replaced by its value as is: a value is
 * never read as a template, so a task titled `{{plan_path}}` stays `{{plan_path}}`.
 *
 * A placeholder alone on its line whose value is empty takes its line away, and the blank line
 * after it, so a template reads the same whether an optional section is there or not.
 *
 * @param template - from `parsePromptTemplate`.
 * @param values - the value of every placeholder.
 * @returns the rendered text.
 * @example
 * ```ts
 * renderTemplate(parsePromptTemplate("A\n\n{{context}}\n\nB"), { ...values, context: "" });
 * // "A\n\nB"
 * ```
 */
export function renderTemplate(template: ParsedPromptTemplate, values: PromptValues): string {
  let output = "";
  let dropLine = false;
  for (const segment of template.segments) {
    if (segment.kind === "text") {
      let text = segment.text;
      if (dropLine) {
        text = text.replace(REST_OF_LINE, "").replace(BLANK_LINE, "");
        dropLine = false;
      }
      output += text;
      continue;
    }
    const value = values[segment.name];
    if (value === "" && segment.standalone) {
      output = withoutTrailingIndent(output);
      dropLine = true;
    } else {
      output += value;
    }
  }
  return output;
}

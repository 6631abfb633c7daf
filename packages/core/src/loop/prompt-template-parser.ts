import { distance } from "fastest-levenshtein";
import { lineColumnAt } from "../errors/line-column.js";
import {
  isPromptPlaceholder,
  PROMPT_PLACEHOLDER_NAMES,
  type PromptPlaceholder,
} from "./prompt-placeholders.js";
import { PromptTemplateError, type PromptTemplateIssue } from "./prompt-template-error.js";

/**
 * `{{name}}`, `{{ name }}`, or `\{{name}}` (a literal). A name starts with a letter or `_`
 * and goes on with letters, digits, `_`, `-` and `.`, so typos such as `{{task-id}}` or
 * `{{plan.path}}` are caught, while `{{ .Name }}` or `{{#each}}` are plain text.
 */
const PLACEHOLDER = /(\\?)\{\{[ \t]*([A-Za-z_][\w.-]*)[ \t]*\}\}/g;

/** One piece of a parsed template. */
export type PromptTemplateSegment =
  | { readonly kind: "text"; readonly text: string }
  | {
      readonly kind: "placeholder";
      readonly name: PromptPlaceholder;
      /** The placeholder is the only thing on its line but spaces. */
      readonly standalone: boolean;
    };

/** A prompt template split into text and placeholders, ready for `renderTemplate`. */
export interface ParsedPromptTemplate {
  /** The template's text, as given. */
  readonly text: string;
  /** Text and placeholders in order; escapes (`\{{name}}`) already turned into text. */
  readonly segments: readonly PromptTemplateSegment[];
  /**
   * Whether the template has at least one known placeholder. A template without any is a
   * plain prompt (a ralph_loop.sh `PROMPT.md`): it is used as is and the loop instructions are
   * appended to it.
   */
  readonly usesPlaceholders: boolean;
}

/** Options of {@link parsePromptTemplate}. */
export interface ParsePromptTemplateOptions {
  /** The template's file name (`PROMPT.md`), used in error messages. */
  readonly file?: string | undefined;
}

/** A name reduced for comparison: lower case, `-`, `.` and spaces read as `_`. */
function comparable(name: string): string {
  return name.toLowerCase().replace(/[-.\s]/g, "_");
}

/**
 * The valid placeholder nearest to an unknown name, when it is a likely typo: at most 1 edit
 * or 40% of the name's length, whichever is more, after {@link comparable}. Ties go to the
 * earlier placeholder.
 */
export function nearestPlaceholder(name: string): PromptPlaceholder | undefined {
  const wanted = comparable(name);
  const limit = Math.max(1, Math.floor(wanted.length * 0.4));
  let best: PromptPlaceholder | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of PROMPT_PLACEHOLDER_NAMES) {
    const score = distance(wanted, candidate);
    if (score < bestDistance) {
      best = candidate;
      bestDistance = score;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** Whether the text around `start`..`end` on its line is only spaces and tabs. */
function isAloneOnLine(text: string, start: number, end: number): boolean {
  const lineStart = Math.max(text.lastIndexOf("\n", start - 1), text.lastIndexOf("\r", start - 1));
  const before = text.slice(lineStart + 1, start);
  const after = /^[^\r\n]*/.exec(text.slice(end))?.[0] ?? "";
  return /^[ \t]*$/.test(before) && /^[ \t]*$/.test(after);
}

/** The issue for an unknown placeholder found at `offset`. */
function unknownPlaceholderIssue(text: string, name: string, offset: number): PromptTemplateIssue {
  const { line, column } = lineColumnAt(text, offset);
  const suggestion = nearestPlaceholder(name);
  if (suggestion !== undefined) {
    return {
      message: `unknown placeholder {{${name}}}: did you mean {{${suggestion}}}?`,
      placeholder: name,
      line,
      column,
      suggestion,
    };
  }
  const valid = PROMPT_PLACEHOLDER_NAMES.map((known) => `{{${known}}}`).join(", ");
  return {
    message: `unknown placeholder {{${name}}}: valid placeholders are ${valid}; write \\{{${name}}} for the literal text`,
    placeholder: name,
    line,
    column,
  };
}

/**
 * Splits a prompt template into text and `{{name}}` placeholders, and checks every name.
 *
 * - A template with at least one known placeholder must use only known ones: each unknown
 *   `{{name}}` is an error. Write `\{{name}}` for the literal text `{{name}}`.
 * - A template with no known placeholder is a plain prompt. A `{{name}}` in it is plain text,
 *   unless the name is close to a known placeholder (`{{task_idd}}`): that is an error too, as
 *   a typo would otherwise silently turn a template into a plain prompt.
 *
 * @param text - the template.
 * @param options - the template's file name, for error messages.
 * @returns the parsed template.
 * @throws {PromptTemplateError} listing every unknown placeholder with its line, column and
 * nearest valid name.
 * @example
 * ```ts
 * parsePromptTemplate("Do {{task_id}} now.").usesPlaceholders; // true
 * parsePromptTemplate("Read @fix_plan.md.").usesPlaceholders; // false
 * parsePromptTemplate("Do {{task_idd}}."); // throws: did you mean {{task_id}}?
 * ```
 */
export function parsePromptTemplate(
  text: string,
  options: ParsePromptTemplateOptions = {},
): ParsedPromptTemplate {
  const segments: PromptTemplateSegment[] = [];
  const unknown: { name: string; offset: number }[] = [];
  let pendingText = "";
  let position = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const [whole, backslash = "", name = ""] = match;
    pendingText += text.slice(position, match.index);
    position = match.index + whole.length;
    if (backslash !== "") {
      pendingText += whole.slice(1);
      continue;
    }
    if (!isPromptPlaceholder(name)) {
      unknown.push({ name, offset: match.index });
      pendingText += whole;
      continue;
    }
    if (pendingText !== "") segments.push({ kind: "text", text: pendingText });
    pendingText = "";
    segments.push({
      kind: "placeholder",
      name,
      standalone: isAloneOnLine(text, match.index, position),
    });
  }
  pendingText += text.slice(position);
  if (pendingText !== "") segments.push({ kind: "text", text: pendingText });

  const usesPlaceholders = segments.some((segment) => segment.kind === "placeholder");
  const errors = unknown.filter(
    ({ name }) => usesPlaceholders || nearestPlaceholder(name) !== undefined,
  );
  if (errors.length > 0) {
    throw new PromptTemplateError({
      issues: errors.map(({ name, offset }) => unknownPlaceholderIssue(text, name, offset)),
      file: options.file,
    });
  }
  if (!usesPlaceholders) return { text, segments: [{ kind: "text", text }], usesPlaceholders };
  return { text, segments, usesPlaceholders };
}

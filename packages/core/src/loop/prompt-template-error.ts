import { formatDiagnosticsMessage } from "../errors/diagnostic.js";
import { LoopError } from "../errors/loop-error.js";

const marker = "loop.error.PromptTemplateError";
const symbol = Symbol.for(marker);

/** One unknown placeholder of a prompt template. */
export interface PromptTemplateIssue {
  /** What is wrong and what would be valid. */
  readonly message: string;
  /** The placeholder's name as written (`task_idd` for `{{ task_idd }}`). */
  readonly placeholder: string;
  /** 1-based line of the placeholder's `{{`. */
  readonly line: number;
  /** 1-based column of the placeholder's `{{`, in UTF-16 code units. */
  readonly column: number;
  /** The nearest valid placeholder name, when one is close enough to be a likely typo. */
  readonly suggestion?: string;
}

/** Options of the {@link PromptTemplateError} constructor. */
export interface PromptTemplateErrorOptions {
  /** Every unknown placeholder found in the template. At least one. */
  readonly issues: readonly PromptTemplateIssue[];
  /** The template's file name (`PROMPT.md`), used in the message. */
  readonly file?: string | undefined;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/**
 * A prompt template that cannot be rendered: it has a `{{name}}` placeholder that is not one
 * of `PROMPT_PLACEHOLDERS`. Every such placeholder is listed with its line and column, and the
 * nearest valid name is suggested when one is close. Code: `PROMPT_TEMPLATE_ERROR`.
 *
 * @example
 * ```ts
 * try {
 *   buildPrompt(context, { template: promptText, templateFile: "PROMPT.md" });
 * } catch (error) {
 *   if (PromptTemplateError.isInstance(error)) console.error(error.message);
 *   // Invalid prompt template (1 problem):
 *   //   PROMPT.md:3:9 unknown placeholder {{task_idd}}: did you mean {{task_id}}?
 *   else throw error;
 * }
 * ```
 */
export class PromptTemplateError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker is read through Symbol.for by isInstance.
  private readonly [symbol] = true;

  /** Every unknown placeholder, in template order. */
  readonly issues: readonly PromptTemplateIssue[];
  /** The template's file name, when the caller gave one. */
  readonly file: string | undefined;

  /** @param options - the problems, the template's file name and the cause. */
  constructor(options: PromptTemplateErrorOptions) {
    super(
      {
        message: formatDiagnosticsMessage("Invalid prompt template", options.issues, options.file),
        cause: options.cause,
      },
      "PromptTemplateError",
      "PROMPT_TEMPLATE_ERROR",
    );
    this.issues = options.issues;
    this.file = options.file;
  }

  /** Whether `error` is a {@link PromptTemplateError}, from any copy of the package. */
  static override isInstance(error: unknown): error is PromptTemplateError {
    return LoopError.hasMarker(error, marker);
  }
}

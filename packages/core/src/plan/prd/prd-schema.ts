import * as z from "zod";
import { describeJsonValue } from "./describe-json-value.js";

/** A zod error function: "must be `expected`, got <the value>". */
function mustBe(expected: string): (issue: { readonly input?: unknown }) => string {
  return (issue) => `must be ${expected}, got ${describeJsonValue(issue.input)}`;
}

/** A story id: a non-empty string or an integer. */
function storyIdSchema(role: string) {
  return z
    .union([z.string(), z.int()], { error: mustBe(`${role} (a string or an integer)`) })
    .refine((id) => typeof id !== "string" || id.trim() !== "", {
      error: `must be ${role}, got an empty string`,
    });
}

/** A single value wrapped as a one-item list, so one schema checks both spellings. */
function asList(single: (value: unknown) => boolean) {
  return (value: unknown): unknown => (single(value) ? [value] : value);
}

const optionalText = z
  .string({ error: mustBe("a string") })
  .nullable()
  .optional();

const textList = z
  .preprocess(
    asList((value) => typeof value === "string"),
    z.array(z.string({ error: mustBe("a string") }), {
      error: mustBe("a string or an array of strings"),
    }),
  )
  .nullable()
  .optional();

const storyIdList = z
  .preprocess(
    asList((value) => typeof value === "string" || Number.isSafeInteger(value)),
    z.array(storyIdSchema("a story id"), {
      error: mustBe("a story id or an array of story ids"),
    }),
  )
  .nullable()
  .optional();

/**
 * The shape of one story, field by field (aliases each checked under their own name).
 * Unknown fields pass through. Ids, aliases and cross-story rules are checked after it.
 */
export const prdStorySchema = z.looseObject(
  {
    id: storyIdSchema("a story id").nullable().optional(),
    title: z
      .string({
        error: (issue) =>
          issue.input === undefined
            ? "missing: every story needs a non-empty `title`"
            : mustBe("a non-empty string")(issue),
      })
      .refine((title) => title.trim() !== "", {
        error: "must not be empty: every story needs a title",
      }),
    description: optionalText,
    acceptanceCriteria: textList,
    acceptance_criteria: textList,
    priority: z
      .number({ error: mustBe("a number") })
      .nullable()
      .optional(),
    passes: z.boolean({ error: mustBe("true or false") }).optional(),
    dependencies: storyIdList,
    dependsOn: storyIdList,
    depends_on: storyIdList,
    verification: optionalText,
    verificationCommand: optionalText,
    verification_command: optionalText,
    verify: optionalText,
    notes: optionalText,
  },
  { error: mustBe("a story object") },
);

/** One story as {@link prdStorySchema} reads it. */
export type PrdStoryInput = z.output<typeof prdStorySchema>;

const storyArray = z.array(z.unknown(), { error: mustBe("an array of stories") }).optional();

/**
 * The shape of the top-level object. The stories are checked one by one with
 * {@link prdStorySchema}, so that every story's problems are reported.
 */
export const prdDocumentSchema = z.looseObject(
  {
    stories: storyArray,
    userStories: storyArray,
    completedStories: z
      .int({ error: mustBe("a whole number") })
      .min(0, { error: "must not be negative" })
      .nullable()
      .optional(),
    project: optionalText,
    branchName: optionalText,
    description: optionalText,
  },
  { error: mustBe("a JSON object with a `stories` or `userStories` array") },
);

/** The top-level object as {@link prdDocumentSchema} reads it. */
export type PrdDocumentInput = z.output<typeof prdDocumentSchema>;

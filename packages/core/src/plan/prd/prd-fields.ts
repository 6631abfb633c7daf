/**
 * The spellings accepted for each story field that has aliases, canonical name first.
 * A story may use one spelling per field.
 */
export const storyFieldAliases = {
  acceptanceCriteria: ["acceptanceCriteria", "acceptance_criteria"],
  dependencies: ["dependencies", "dependsOn", "depends_on"],
  verification: ["verification", "verificationCommand", "verification_command", "verify"],
} as const satisfies Readonly<Record<string, readonly string[]>>;

/** Every story field this module interprets; the others are kept in `PrdStory.extra`. */
export const knownStoryKeys: ReadonlySet<string> = new Set([
  "id",
  "title",
  "description",
  "priority",
  "passes",
  "notes",
  ...Object.values(storyFieldAliases).flat(),
]);

/** Every top-level field this module interprets; the others are kept in `Prd.extra`. */
export const knownDocumentKeys: ReadonlySet<string> = new Set([
  "stories",
  "userStories",
  "completedStories",
  "project",
  "branchName",
  "description",
]);

/** The fields of `object` whose names are not in `known`, as own properties of a new object. */
export function extraFields(
  object: Readonly<Record<string, unknown>>,
  known: ReadonlySet<string>,
): Readonly<Record<string, unknown>> {
  return Object.fromEntries(Object.entries(object).filter(([key]) => !known.has(key)));
}

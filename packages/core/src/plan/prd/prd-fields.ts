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
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(object)) {
    if (known.has(key)) continue;
    // `__proto__` is a key like any other here (as Object.fromEntries would make it).
    if (key === "__proto__") Object.defineProperty(extra, key, ownField(object[key]));
    else extra[key] = object[key];
  }
  return extra;
}

/** A property descriptor as an ordinary assignment makes one. */
function ownField(value: unknown): PropertyDescriptor {
  return { value, writable: true, enumerable: true, configurable: true };
}

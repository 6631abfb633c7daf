import { isJsonObject } from "./is-json-object.js";
import { issueAtKey } from "./json-location.js";
import { locateSchemaIssues } from "./locate-schema-issues.js";
import type { JsonPath, LocatedIssue } from "./located-issue.js";
import type { JsonDocument } from "./parse-json-document.js";
import { extraFields, knownStoryKeys, storyFieldAliases } from "./prd-fields.js";
import { type PrdStoryInput, prdStorySchema } from "./prd-schema.js";
import { quickStoryIdList, quickStoryInput } from "./quick-story-input.js";
import { derivedStoryId, type StoryDraft } from "./story-draft.js";

/** The id the story gives or, when it has none, its derived id; `null` when the id is invalid. */
function readStoryId(item: unknown, index: number): { id: string | null; derivedId: boolean } {
  if (!isJsonObject(item)) return { id: null, derivedId: false };
  const id = item.id;
  if (id === undefined || id === null) return { id: derivedStoryId(index), derivedId: true };
  if (typeof id === "string" && id.trim() !== "") return { id, derivedId: false };
  if (typeof id === "number" && Number.isSafeInteger(id))
    return { id: String(id), derivedId: false };
  return { id: null, derivedId: false };
}

type AliasedField = keyof typeof storyFieldAliases;

const ALIASED_FIELDS = Object.entries(storyFieldAliases) as [AliasedField, readonly string[]][];

/** For each aliased field, the one spelling the story uses (`undefined`: none). */
type ChosenSpellings = { readonly [Field in AliasedField]: string | undefined };

/**
 * Picks the spelling each aliased field uses. A field given under two spellings (both
 * not null) is ambiguous: an issue at the second spelling's key.
 */
function chooseSpellings(
  document: JsonDocument,
  path: JsonPath,
  item: Readonly<Record<string, unknown>>,
  issues: LocatedIssue[],
): { readonly spellings: ChosenSpellings; readonly ambiguous: ReadonlySet<AliasedField> } {
  let ambiguous: Set<AliasedField> | null = null;
  const spellings: Record<string, string | undefined> = {};
  for (const [field, names] of ALIASED_FIELDS) {
    let first: string | undefined;
    let second: string | undefined;
    for (const name of names) {
      if (item[name] === undefined || item[name] === null) continue;
      if (first === undefined) first = name;
      else if (second === undefined) second = name;
    }
    spellings[field] = first;
    if (first === undefined || second === undefined) continue;
    ambiguous ??= new Set();
    ambiguous.add(field);
    const message = `\`${second}\` and \`${first}\` are two spellings of the same field: keep one`;
    issues.push(issueAtKey(document.root, [...path, second], message));
  }
  return { spellings: spellings as ChosenSpellings, ambiguous: ambiguous ?? NONE_AMBIGUOUS };
}

const NONE_AMBIGUOUS: ReadonlySet<AliasedField> = new Set();

/** The value of the chosen spelling of an aliased field in the schema's output. */
function aliased<Value>(input: PrdStoryInput, key: string | undefined): Value | undefined {
  return key === undefined ? undefined : ((input as Record<string, unknown>)[key] as Value);
}

/**
 * The story's dependencies and their paths (one per array item, or the field for a single
 * id), read from its chosen dependency field alone, so that the cross-story rules see
 * them even when other fields have problems. None when the field is invalid.
 */
function readDependencies(
  item: Readonly<Record<string, unknown>>,
  path: JsonPath,
  key: string | undefined,
): Pick<StoryDraft, "dependencies" | "dependencyPaths"> {
  const none = { dependencies: [], dependencyPaths: [] };
  if (key === undefined) return none;
  const value = item[key];
  const quick = quickStoryIdList(value);
  const result =
    quick === false
      ? prdStorySchema.shape.dependencies.safeParse(value)
      : { success: true as const, data: quick };
  if (!result.success || result.data === undefined || result.data === null) return none;
  const fieldPath = [...path, key];
  return {
    dependencies: result.data.map(String),
    dependencyPaths: Array.isArray(value)
      ? value.map((_, index) => [...fieldPath, index])
      : [fieldPath],
  };
}

/**
 * Reads one item of the story array: checks its shape and aliases (pushing every problem
 * to `issues`) and returns what is known of it.
 */
export function readStory(
  document: JsonDocument,
  path: JsonPath,
  index: number,
  item: unknown,
  issues: LocatedIssue[],
): StoryDraft {
  const { id, derivedId } = readStoryId(item, index);
  // zod judges only the stories the hand check cannot vouch for, and reports their problems.
  const quick = quickStoryInput(item);
  const result =
    quick === null ? prdStorySchema.safeParse(item) : { success: true as const, data: quick };
  if (!result.success) {
    issues.push(...locateSchemaIssues(document.root, path, result.error.issues));
  }
  const draft: StoryDraft = {
    index,
    path,
    id,
    derivedId,
    story: null,
    dependencies: [],
    dependencyPaths: [],
  };
  if (!isJsonObject(item)) return draft;
  const { spellings, ambiguous } = chooseSpellings(document, path, item, issues);
  const dependencies = ambiguous.has("dependencies")
    ? draft
    : readDependencies(item, path, spellings.dependencies);
  if (!result.success || id === null || ambiguous.size > 0) return { ...draft, ...dependencies };
  const input = result.data;
  const acceptanceCriteria = aliased<readonly string[] | null>(input, spellings.acceptanceCriteria);
  return {
    ...draft,
    ...dependencies,
    story: {
      id,
      derivedId,
      title: input.title,
      description: input.description ?? null,
      acceptanceCriteria: acceptanceCriteria ?? [],
      priority: input.priority ?? null,
      passes: input.passes ?? false,
      dependencies: dependencies.dependencies,
      verification: aliased<string | null>(input, spellings.verification) ?? null,
      notes: input.notes ?? null,
      index,
      extra: extraFields(item, knownStoryKeys),
    },
  };
}

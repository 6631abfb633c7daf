import { findNodeAtLocation, type Node } from "jsonc-parser";
import { checkDependencyCycles } from "./check-dependency-cycles.js";
import { checkDuplicateStoryIds } from "./check-duplicate-story-ids.js";
import { checkStoryDependencies } from "./check-story-dependencies.js";
import { duplicateKeyIssues } from "./duplicate-keys.js";
import { isJsonObject } from "./is-json-object.js";
import { issueAtKey, issueAtValue } from "./json-location.js";
import { locateSchemaIssues } from "./locate-schema-issues.js";
import { type LocatedIssue, toDiagnostics } from "./located-issue.js";
import { type JsonDocument, parseJsonDocument } from "./parse-json-document.js";
import type { ParsePrdOptions } from "./parse-prd-options.js";
import type { Prd, PrdStoriesKey } from "./prd.js";
import { extraFields, knownDocumentKeys } from "./prd-fields.js";
import { PrdParseError } from "./prd-parse-error.js";
import { type PrdDocumentInput, prdDocumentSchema } from "./prd-schema.js";
import type { PrdStory } from "./prd-story.js";
import { readStory } from "./read-story.js";
import type { StoryDraft } from "./story-draft.js";
import type { StoryRule } from "./story-rule.js";

/** The checks across stories, run in this order once every story has been read. */
const storyRules: readonly StoryRule[] = [
  checkDuplicateStoryIds,
  checkStoryDependencies,
  checkDependencyCycles,
];

/** A parsed prd.json together with the document it came from, for editing. */
export interface AnalyzedPrd {
  /** The parsed prd.json. */
  readonly prd: Prd;
  /** The JSON document: text, syntax tree and value. */
  readonly document: JsonDocument;
}

/** Throws a {@link PrdParseError} listing `issues`. */
function fail(text: string, issues: readonly LocatedIssue[], options: ParsePrdOptions): never {
  throw new PrdParseError({ issues: toDiagnostics(text, issues), file: options.file });
}

/**
 * Which array holds the stories. Neither or both is an issue (and no stories are read).
 */
function chooseStoriesKey(
  root: Node,
  value: Readonly<Record<string, unknown>>,
  issues: LocatedIssue[],
): PrdStoriesKey | null {
  const hasStories = value.stories !== undefined;
  const hasUserStories = value.userStories !== undefined;
  if (hasStories && hasUserStories) {
    issues.push(
      issueAtKey(
        root,
        ["userStories"],
        "both `stories` and `userStories` are given: keep one array of stories",
      ),
    );
    return null;
  }
  if (hasStories) return "stories";
  if (hasUserStories) return "userStories";
  issues.push(
    issueAtValue(root, [], "missing the story array: expected a `stories` or `userStories` array"),
  );
  return null;
}

/** Reads every story of the array under `key`, then runs the cross-story rules. */
function readStories(
  document: JsonDocument,
  key: PrdStoriesKey,
  items: readonly unknown[],
  issues: LocatedIssue[],
): StoryDraft[] {
  const { text, root } = document;
  const drafts = items.map((item, index) => {
    const path = [key, index];
    const node = findNodeAtLocation(root, path);
    if (node !== undefined) issues.push(...duplicateKeyIssues(text, node, path));
    return readStory(root, path, index, item, issues);
  });
  for (const rule of storyRules) issues.push(...rule({ text, root, drafts }));
  return drafts;
}

/**
 * Parses a prd.json and keeps its document for editing. Throws {@link PrdParseError} as
 * {@link parsePrd} does.
 */
export function analyzePrd(json: string, options?: ParsePrdOptions | null): AnalyzedPrd {
  const settings = options ?? {};
  const parsed = parseJsonDocument(json);
  if (!parsed.ok) fail(json, [parsed.issue], settings);
  const { document } = parsed;
  const { root, value } = document;
  const issues: LocatedIssue[] = [];
  const result = prdDocumentSchema.safeParse(value);
  if (!result.success) issues.push(...locateSchemaIssues(root, [], result.error.issues));
  if (!isJsonObject(value)) fail(json, issues, settings);
  const top = value;
  issues.push(...duplicateKeyIssues(json, root, []));
  const key = chooseStoriesKey(root, top, issues);
  const items = key === null ? undefined : top[key];
  const drafts =
    Array.isArray(items) && key !== null ? readStories(document, key, items, issues) : [];
  if (!result.success || key === null || issues.length > 0) fail(json, issues, settings);
  return { prd: buildPrd(key, drafts, result.data, top), document };
}

/** The finished {@link Prd}, once every check has passed. */
function buildPrd(
  storiesKey: PrdStoriesKey,
  drafts: readonly StoryDraft[],
  input: PrdDocumentInput,
  top: Readonly<Record<string, unknown>>,
): Prd {
  const stories = drafts.flatMap((draft): PrdStory[] =>
    draft.story === null ? [] : [draft.story],
  );
  return {
    storiesKey,
    stories,
    completedStories: input.completedStories ?? null,
    project: input.project ?? null,
    branchName: input.branchName ?? null,
    description: input.description ?? null,
    extra: extraFields(top, knownDocumentKeys),
  };
}

/**
 * Parses a prd.json: the ralph-loop skill's `{ "stories": [...], "completedStories": n }`
 * or the common `{ "project", "branchName", "description", "userStories": [...] }`.
 *
 * Story fields are normalised (aliases resolved, integer ids as strings, stories without
 * an id get `STORY-<position>`); unknown fields are kept in `extra`. See
 * `docs/prd-format.md` for every rule.
 *
 * @param json - the prd.json text.
 * @param options - the file name for error messages.
 * @returns the stories and top-level fields.
 * @throws {PrdParseError} when the text is not JSON, or not a usable prd.json: the error
 *   lists every problem with its JSON path and line:column.
 *
 * @example
 * ```ts
 * const prd = parsePrd(text, { file: "prd.json" });
 * const open = prd.stories.filter((story) => !story.passes);
 * ```
 */
export function parsePrd(json: string, options?: ParsePrdOptions | null): Prd {
  return analyzePrd(json, options).prd;
}

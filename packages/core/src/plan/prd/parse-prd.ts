import { findNodeAtLocation } from "jsonc-parser";
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
import { quickJsonDocument } from "./quick-json-document.js";
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
  document: JsonDocument,
  value: Readonly<Record<string, unknown>>,
  issues: LocatedIssue[],
): PrdStoriesKey | null {
  const hasStories = value.stories !== undefined;
  const hasUserStories = value.userStories !== undefined;
  if (hasStories && hasUserStories) {
    issues.push(
      issueAtKey(
        document.root,
        ["userStories"],
        "both `stories` and `userStories` are given: keep one array of stories",
      ),
    );
    return null;
  }
  if (hasStories) return "stories";
  if (hasUserStories) return "userStories";
  issues.push(
    issueAtValue(
      document.root,
      [],
      "missing the story array: expected a `stories` or `userStories` array",
    ),
  );
  return null;
}

/**
 * Reads every story of the array under `key`, then runs the cross-story rules. Repeated keys
 * are looked for in each story unless the document is known to repeat none.
 */
function readStories(
  document: JsonDocument,
  key: PrdStoriesKey,
  items: readonly unknown[],
  issues: LocatedIssue[],
  repeatsNoKey: boolean,
): StoryDraft[] {
  const { text } = document;
  const drafts = items.map((item, index) => {
    const path = [key, index];
    const node = repeatsNoKey ? undefined : findNodeAtLocation(document.root, path);
    if (node !== undefined) issues.push(...duplicateKeyIssues(text, node, path));
    return readStory(document, path, index, item, issues);
  });
  for (const rule of storyRules) issues.push(...rule({ document, drafts }));
  return drafts;
}

/**
 * Parses a prd.json and keeps its document for editing. Throws {@link PrdParseError} as
 * {@link parsePrd} does.
 */
export function analyzePrd(json: string, options?: ParsePrdOptions | null): AnalyzedPrd {
  // Most documents are valid: `JSON.parse` reads them, and the locating parser only runs for
  // a document it cannot vouch for (a syntax error, deep nesting, a repeated key), or to
  // locate an issue.
  return analyzePrdDocument(json, options ?? {}, quickJsonDocument(json));
}

/**
 * {@link analyzePrd} on the document `quickJsonDocument` gave, or, when `quick` is `null`, on
 * the one the locating parser reads. Both give the same result and the same errors
 * (parse-prd-quick.test.ts).
 */
export function analyzePrdDocument(
  json: string,
  settings: ParsePrdOptions,
  quick: JsonDocument | null,
): AnalyzedPrd {
  const parsed = quick === null ? parseJsonDocument(json) : { ok: true as const, document: quick };
  if (!parsed.ok) fail(json, [parsed.issue], settings);
  const { document } = parsed;
  const repeatsNoKey = quick !== null;
  const { value } = document;
  const issues: LocatedIssue[] = [];
  const result = prdDocumentSchema.safeParse(value);
  if (!result.success) {
    issues.push(...locateSchemaIssues(document.root, [], result.error.issues));
  }
  if (!isJsonObject(value)) fail(json, issues, settings);
  const top = value;
  if (!repeatsNoKey) issues.push(...duplicateKeyIssues(json, document.root, []));
  const key = chooseStoriesKey(document, top, issues);
  const items = key === null ? undefined : top[key];
  const drafts =
    Array.isArray(items) && key !== null
      ? readStories(document, key, items, issues, repeatsNoKey)
      : [];
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

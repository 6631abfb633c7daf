import { findNodeAtLocation, type Node } from "jsonc-parser";
import { insertProperty } from "./insert-property.js";
import { nearestStoryId } from "./nearest-story-id.js";
import { analyzePrd } from "./parse-prd.js";
import type { ParsePrdOptions } from "./parse-prd-options.js";
import type { Prd } from "./prd.js";
import type { PrdStory } from "./prd-story.js";
import { PrdUpdateError } from "./prd-update-error.js";
import { applyTextEdits, replaceValue, type TextEdit } from "./text-edit.js";

/** What {@link updatePrd} changes. */
export interface UpdatePrdEdit {
  /** The new `passes` of stories, by story id (derived ids included). */
  readonly passes: Readonly<Record<string, boolean>>;
}

/** The value node of the property `key` of an object node, if it has one. */
function propertyValue(object: Node, key: string): Node | undefined {
  const property = object.children?.find((child) => child.children?.[0]?.value === key);
  return property?.children?.[1];
}

/** Throws a {@link PrdUpdateError} when the edit names ids that no story has. */
function checkIds(prd: Prd, ids: readonly string[], options: ParsePrdOptions): void {
  const existing = prd.stories.map((story) => story.id);
  const known = new Set(existing);
  const unknownIds = ids
    .filter((id) => !known.has(id))
    .map((id) => ({ id, suggestion: nearestStoryId(id, existing) }));
  if (unknownIds.length > 0) throw new PrdUpdateError({ unknownIds, file: options.file });
}

/** The edit that gives one story its new `passes`, or `null` when none is needed. */
function passesEdit(text: string, root: Node, prd: Prd, story: PrdStory, passes: boolean) {
  if (story.passes === passes) return null;
  const object = findNodeAtLocation(root, [prd.storiesKey, story.index]);
  if (object === undefined) return null;
  const value = propertyValue(object, "passes");
  if (value !== undefined) return replaceValue(value, String(passes));
  return insertProperty(text, object, "passes", String(passes));
}

/**
 * Sets the `passes` of stories of a prd.json, changing only the characters that must
 * change: an existing `passes` value is replaced in place; a story without `passes`
 * (which reads as `false`) that must pass gets `"passes": true` as its last property, in
 * the story object's own style. When a story's `passes` changed and the document has a
 * numeric `completedStories`, it is set to the number of passing stories. Every other
 * character survives: line endings, indentation, key order, escapes, the final newline.
 * An edit that changes nothing returns `json` itself.
 *
 * @param json - the prd.json text.
 * @param edit - the new `passes` by story id.
 * @param options - the file name for error messages.
 * @returns the edited text.
 * @throws {PrdParseError} when `json` is not a valid prd.json (as `parsePrd` throws).
 * @throws {PrdUpdateError} when `edit` names ids that no story has; nothing is changed.
 *
 * @example
 * ```ts
 * const text = updatePrd(await readFile("prd.json", "utf8"), { passes: { "US-002": true } });
 * ```
 */
export function updatePrd(
  json: string,
  edit: UpdatePrdEdit,
  options?: ParsePrdOptions | null,
): string {
  const settings = options ?? {};
  const { prd, document } = analyzePrd(json, settings);
  const wanted = new Map(Object.entries(edit.passes));
  for (const [id, passes] of wanted) {
    if (typeof passes !== "boolean") {
      throw new TypeError(`updatePrd: passes of \`${id}\` must be a boolean, got ${typeof passes}`);
    }
  }
  checkIds(prd, [...wanted.keys()], settings);
  const edits: TextEdit[] = [];
  for (const story of prd.stories) {
    const passes = wanted.get(story.id);
    if (passes === undefined) continue;
    const change = passesEdit(json, document.root, prd, story, passes);
    if (change !== null) edits.push(change);
  }
  if (edits.length === 0) return json;
  const completedStories = findNodeAtLocation(document.root, ["completedStories"]);
  if (completedStories?.type === "number") {
    const passing = prd.stories.filter((story) => wanted.get(story.id) ?? story.passes).length;
    if (passing !== prd.completedStories)
      edits.push(replaceValue(completedStories, String(passing)));
  }
  return applyTextEdits(json, edits);
}

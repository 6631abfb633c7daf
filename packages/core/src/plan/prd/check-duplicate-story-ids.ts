import { formatKeyPath } from "../../errors/diagnostic.js";
import { lineColumnAt } from "../../errors/line-column.js";
import { issueAtValue, nearestNode } from "./json-location.js";
import { type StoryDraft, storyIdPath } from "./story-draft.js";
import type { StoryRule } from "./story-rule.js";

/** How a draft got its id, for messages: `id` as written, or derived. */
function idOrigin(draft: StoryDraft): string {
  return draft.derivedId ? " (derived: the story has no `id`)" : "";
}

/**
 * Story ids must be unique: each story whose id an earlier story already has is an issue,
 * located at its id and naming the earlier story's location. Integer and string ids
 * compare as strings (`1` and `"1"` collide), as do derived ids (`STORY-2`).
 */
export const checkDuplicateStoryIds: StoryRule = ({ document, drafts }) => {
  const first = new Map<string, StoryDraft>();
  return drafts.flatMap((draft) => {
    if (draft.id === null) return [];
    const earlier = first.get(draft.id);
    if (earlier === undefined) {
      first.set(draft.id, draft);
      return [];
    }
    const earlierPath = storyIdPath(earlier);
    const { root, text } = document;
    const { line, column } = lineColumnAt(text, nearestNode(root, earlierPath).offset);
    const message =
      `duplicate story id \`${draft.id}\`${idOrigin(draft)}; ` +
      `also used by ${formatKeyPath(earlierPath)} (${line}:${column})${idOrigin(earlier)}`;
    return [issueAtValue(root, storyIdPath(draft), message)];
  });
};

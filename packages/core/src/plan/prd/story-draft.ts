import type { JsonPath } from "./located-issue.js";
import type { PrdStory } from "./prd-story.js";

/**
 * One story on its way through parsing: what is known of it even when it has problems,
 * and where its parts are, for the cross-story rules' messages.
 */
export interface StoryDraft {
  /** 0-based position in the story array. */
  readonly index: number;
  /** Path of the story object. */
  readonly path: JsonPath;
  /** The story's id (given or derived), or `null` when its `id` is invalid. */
  readonly id: string | null;
  /** Whether {@link StoryDraft.id} was derived because the story has no `id`. */
  readonly derivedId: boolean;
  /** The finished story, or `null` when the story has shape problems. */
  readonly story: PrdStory | null;
  /**
   * The ids the story depends on, as strings, when its dependency field is valid (even if
   * other fields are not); `[]` otherwise.
   */
  readonly dependencies: readonly string[];
  /** Path of each dependency, parallel to {@link StoryDraft.dependencies}. */
  readonly dependencyPaths: readonly JsonPath[];
}

/** The id given to a story without an `id`: `STORY-` and its 1-based position. */
export function derivedStoryId(index: number): string {
  return `STORY-${index + 1}`;
}

/** The path of a draft's id: its `id` property, or the story object when the id is derived. */
export function storyIdPath(draft: StoryDraft): JsonPath {
  return draft.derivedId ? draft.path : [...draft.path, "id"];
}

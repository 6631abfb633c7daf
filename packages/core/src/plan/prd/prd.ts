import type { PrdStory } from "./prd-story.js";

/**
 * Name of the array that holds the stories: `stories` in the ralph-loop skill's
 * prd.json, `userStories` in the common prd.json shape.
 */
export type PrdStoriesKey = "stories" | "userStories";

/** A parsed prd.json: its stories and the top-level fields the loop knows. */
export interface Prd {
  /** Which of the two accepted shapes the document uses. */
  readonly storiesKey: PrdStoriesKey;
  /** The stories, in document order. Their ids are unique. */
  readonly stories: readonly PrdStory[];
  /**
   * The document's `completedStories` count as written, or `null` when it has none.
   * It is the agent's bookkeeping, not checked against the stories' `passes`.
   */
  readonly completedStories: number | null;
  /** The top-level `project` name, or `null`. */
  readonly project: string | null;
  /** The top-level `branchName`, or `null`. */
  readonly branchName: string | null;
  /** The top-level `description`, or `null`. */
  readonly description: string | null;
  /** Top-level fields this module does not interpret, with their values as written. */
  readonly extra: Readonly<Record<string, unknown>>;
}

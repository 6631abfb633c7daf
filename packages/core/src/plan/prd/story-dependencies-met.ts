import { nearestStoryId } from "./nearest-story-id.js";
import type { Prd } from "./prd.js";
import { PrdUnknownStoryError } from "./prd-unknown-story-error.js";

/**
 * Whether every story that `storyId` depends on passes. A story without dependencies
 * has them met. The story's own `passes` does not matter.
 *
 * This is the ralph-loop rule "all dependency story ids must have `passes: true`"; which
 * story to work on next is the policy's choice, not this function's.
 *
 * @param prd - a prd.json parsed with `parsePrd` (its dependencies all name stories).
 * @param storyId - the id of a story of `prd`.
 * @throws {PrdUnknownStoryError} when `prd` has no story with id `storyId`.
 *
 * @example
 * ```ts
 * const ready = prd.stories.filter(
 *   (story) => !story.passes && storyDependenciesMet(prd, story.id),
 * );
 * ```
 */
export function storyDependenciesMet(prd: Prd, storyId: string): boolean {
  const story = prd.stories.find((candidate) => candidate.id === storyId);
  if (story === undefined) {
    const suggestion = nearestStoryId(
      storyId,
      prd.stories.map((candidate) => candidate.id),
    );
    throw new PrdUnknownStoryError({ unknownId: { id: storyId, suggestion } });
  }
  const passes = new Map(prd.stories.map((candidate) => [candidate.id, candidate.passes]));
  return story.dependencies.every((dependency) => passes.get(dependency) === true);
}

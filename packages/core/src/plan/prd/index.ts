/**
 * prd.json: the story list of a ralph-loop (stories with `passes`, dependencies,
 * acceptance criteria and a verification command). Parse it, check it, and mark
 * stories as passing without disturbing the rest of the file.
 *
 * @module
 */

export { parsePrd } from "./parse-prd.js";
export type { ParsePrdOptions } from "./parse-prd-options.js";
export type { Prd, PrdStoriesKey } from "./prd.js";
export { PrdParseError } from "./prd-parse-error.js";
export type { PrdStory } from "./prd-story.js";
export { PrdUnknownStoryError } from "./prd-unknown-story-error.js";
export { PrdUpdateError, type PrdUpdateErrorOptions } from "./prd-update-error.js";
export { storyDependenciesMet } from "./story-dependencies-met.js";
export type { UnknownStoryId } from "./unknown-story-id.js";
export { type UpdatePrdEdit, updatePrd } from "./update-prd.js";

import type { LocatedIssue } from "./located-issue.js";
import type { JsonDocument } from "./parse-json-document.js";
import type { StoryDraft } from "./story-draft.js";

/** What a cross-story rule gets: the document and every story read from it. */
export interface StoryRuleContext {
  /**
   * The document. Read its `root` only to locate an issue: a document that `JSON.parse` read
   * parses its syntax tree when `root` is first read.
   */
  readonly document: JsonDocument;
  /** Every item of the story array, in order, including the ones with problems. */
  readonly drafts: readonly StoryDraft[];
}

/** A check across stories (unique ids, known dependencies, no cycles). */
export type StoryRule = (context: StoryRuleContext) => LocatedIssue[];

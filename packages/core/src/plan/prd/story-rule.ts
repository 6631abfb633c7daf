import type { Node } from "jsonc-parser";
import type { LocatedIssue } from "./located-issue.js";
import type { StoryDraft } from "./story-draft.js";

/** What a cross-story rule gets: the document and every story read from it. */
export interface StoryRuleContext {
  /** The document's text. */
  readonly text: string;
  /** The document's syntax tree. */
  readonly root: Node;
  /** Every item of the story array, in order, including the ones with problems. */
  readonly drafts: readonly StoryDraft[];
}

/** A check across stories (unique ids, known dependencies, no cycles). */
export type StoryRule = (context: StoryRuleContext) => LocatedIssue[];

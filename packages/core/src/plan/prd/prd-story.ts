/**
 * One story of a prd.json, normalised: aliases resolved, ids as strings, absent
 * optional fields as `null` or `[]`.
 *
 * A story is the unit of work of a ralph-loop iteration: the agent implements it,
 * runs its {@link PrdStory.verification} command and, when that succeeds, sets its
 * {@link PrdStory.passes} to `true`.
 */
export interface PrdStory {
  /**
   * The story's id: the `id` field as written (an integer id becomes its decimal
   * string), or `STORY-<position>` (1-based) when the story has no `id`.
   */
  readonly id: string;
  /** Whether {@link PrdStory.id} was derived because the story has no `id` field. */
  readonly derivedId: boolean;
  /** The story's title, as written. Never empty. */
  readonly title: string;
  /** The story's description, or `null` when it has none. */
  readonly description: string | null;
  /**
   * The acceptance criteria, in order (`acceptanceCriteria` or `acceptance_criteria`);
   * a single string is one criterion; `[]` when there are none.
   */
  readonly acceptanceCriteria: readonly string[];
  /** The story's priority as written (any JSON number), or `null` when it has none. */
  readonly priority: number | null;
  /** Whether the story passes; `false` when the story has no `passes` field. */
  readonly passes: boolean;
  /**
   * Ids of the stories this one depends on (`dependencies`, `dependsOn` or
   * `depends_on`), in order, integers as decimal strings; `[]` when there are none.
   * Every id is the id of another story of the same prd.json.
   */
  readonly dependencies: readonly string[];
  /**
   * The command that verifies the story (`verification`, `verificationCommand`,
   * `verification_command` or `verify`), or `null` when it has none. It is data: never
   * pass it through a shell without the user's consent.
   */
  readonly verification: string | null;
  /** The story's notes, or `null` when it has none. */
  readonly notes: string | null;
  /** 0-based position of the story in the document's story array. */
  readonly index: number;
  /**
   * The story's fields that this module does not interpret, with their values as
   * written. They belong to the user and survive `updatePrd` untouched.
   */
  readonly extra: Readonly<Record<string, unknown>>;
}

/** A story id that names no story of a prd.json, with the nearest id that does. */
export interface UnknownStoryId {
  /** The id as given. */
  readonly id: string;
  /** The existing story id nearest to {@link UnknownStoryId.id} (edit distance), or `null` when the prd.json has no stories. */
  readonly suggestion: string | null;
}

/** Renders unknown ids as "`US-07` (did you mean `US-007`?), `X`". */
export function formatUnknownStoryIds(unknownIds: readonly UnknownStoryId[]): string {
  return unknownIds
    .map(({ id, suggestion }) =>
      suggestion === null ? `\`${id}\`` : `\`${id}\` (did you mean \`${suggestion}\`?)`,
    )
    .join(", ");
}

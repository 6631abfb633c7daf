/**
 * Headings whose task items are optional: run when reached, never blocking completion.
 * Matched case-insensitively, ignoring surrounding whitespace, emphasis and a trailing colon.
 * The config's `plans.optional_headings` defaults to this list.
 */
export const DEFAULT_OPTIONAL_HEADINGS: readonly string[] = Object.freeze([
  "Optional",
  "Future",
  "Future Enhancements",
  "Nice to Have",
]);

/**
 * The plan sections whose items are requirements, highest priority first, as the loop-code
 * seed lists them. See {@link parsePlanRequirements} for what the order means.
 */
export const REQUIREMENT_SECTIONS = Object.freeze([
  "Acceptance Criteria",
  "Success Metrics",
  "Constraints",
] as const);

/** The name of one requirement section. */
export type RequirementSection = (typeof REQUIREMENT_SECTIONS)[number];

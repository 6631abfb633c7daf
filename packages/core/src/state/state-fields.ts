import * as z from "zod";
import { describeValue } from "../config/describe-value.js";
import { isIsoTimestamp } from "./iso-timestamp.js";

/**
 * Builders of the persisted documents' fields. Each gives every problem of its field one
 * message that says what would be valid and what was found (`expected an integer ≥ 0, got -1`),
 * or that the field is missing. Internal to the state and observe modules.
 */

/** A zod `error` option naming what would be valid and what was found. */
export function expected(validValues: string) {
  return {
    error: (issue: { readonly input?: unknown }) =>
      issue.input === undefined
        ? `missing: expected ${validValues}`
        : `expected ${validValues}, got ${describeValue(issue.input)}`,
  };
}

/** An integer ≥ 0 (a count, an iteration number). */
export function countField(description: string) {
  const message = expected("an integer ≥ 0");
  return z.int(message).min(0, message).describe(description);
}

/** A finite number ≥ 0 (an amount of money). */
export function amountField(description: string) {
  const message = expected("a number ≥ 0");
  return z.number(message).min(0, message).describe(description);
}

/** Any string (which may be empty). */
export function textField(description: string) {
  return z.string(expected("a string")).describe(description);
}

/** A non-empty string (an id). */
export function idField(description: string) {
  const message = expected("a non-empty string");
  return z.string(message).min(1, message).describe(description);
}

/** A non-empty string, or `null`. */
export function nullableIdField(description: string) {
  const message = expected("a non-empty string or null");
  return z.string(message).min(1, message).nullable().describe(description);
}

/** A list of non-empty strings (task ids). */
export function idListField(description: string) {
  const itemMessage = expected("a non-empty string");
  return z
    .array(z.string(itemMessage).min(1, itemMessage), expected("a list of strings"))
    .describe(description);
}

const timestampMessage = expected("an ISO 8601 timestamp like 2026-03-14T10:00:00Z");

/** An ISO 8601 timestamp; zone-less timestamps (`2026-03-14T10:00:00`) are accepted. */
export function timestampField(description: string) {
  return z.string(timestampMessage).refine(isIsoTimestamp, timestampMessage).describe(description);
}

/** An ISO 8601 timestamp, or `null`. */
export function nullableTimestampField(description: string) {
  const message = expected("an ISO 8601 timestamp like 2026-03-14T10:00:00Z, or null");
  return z.string(message).refine(isIsoTimestamp, message).nullable().describe(description);
}

/** `true` or `false`. */
export function booleanField(description: string) {
  return z.boolean(expected("true or false")).describe(description);
}

/** One of a few strings. */
export function choiceField<const Choice extends string>(
  choices: readonly [Choice, ...Choice[]],
  description: string,
) {
  return z.enum(choices, expected(`one of ${choices.join(", ")}`)).describe(description);
}

/** One of a few strings, or `null`. */
export function nullableChoiceField<const Choice extends string>(
  choices: readonly [Choice, ...Choice[]],
  description: string,
) {
  const message = expected(`one of ${choices.join(", ")}, or null`);
  return z.enum(choices, message).nullable().describe(description);
}

/**
 * A mapping of fields. Unknown keys are kept (not errors, not dropped), so a document written
 * by a newer version that added optional fields survives being read and written back.
 */
export function sectionField<const Shape extends z.ZodRawShape>(shape: Shape, description: string) {
  return z.looseObject(shape, expected("a mapping (an object)")).describe(description);
}

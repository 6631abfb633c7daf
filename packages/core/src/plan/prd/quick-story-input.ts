import { isJsonObject } from "./is-json-object.js";
import type { PrdStoryInput } from "./prd-schema.js";

/** What a field check says when it cannot vouch for a value: the schema must judge it. */
const UNSURE = Symbol("unsure");

type FieldCheck = (value: unknown) => unknown;

function isStoryId(value: unknown): boolean {
  return typeof value === "string" ? value.trim() !== "" : Number.isSafeInteger(value);
}

function optionalText(value: unknown): unknown {
  return value === undefined || value === null || typeof value === "string" ? value : UNSURE;
}

/** A list the schema reads from one item or an array of them: a fresh array, as zod gives. */
function list(isItem: (value: unknown) => boolean): FieldCheck {
  return (value) => {
    if (value === undefined || value === null) return value;
    if (isItem(value)) return [value];
    return Array.isArray(value) && value.every(isItem) ? [...value] : UNSURE;
  };
}

const textList = list((value) => typeof value === "string");
const storyIdList = list(isStoryId);

/**
 * Each field of `prdStorySchema`, checked by hand: the value the schema gives for a value it
 * accepts, or {@link UNSURE}. Stricter than the schema is fine (the schema then decides);
 * looser never is — prd-schema.test.ts holds the two to that.
 */
const FIELD_CHECKS: Readonly<Record<string, FieldCheck>> = {
  id: (value) => (value === undefined || value === null || isStoryId(value) ? value : UNSURE),
  title: (value) => (typeof value === "string" && value.trim() !== "" ? value : UNSURE),
  description: optionalText,
  acceptanceCriteria: textList,
  acceptance_criteria: textList,
  priority: (value) =>
    value === undefined || value === null || typeof value === "number" ? value : UNSURE,
  passes: (value) => (value === undefined || typeof value === "boolean" ? value : UNSURE),
  dependencies: storyIdList,
  dependsOn: storyIdList,
  depends_on: storyIdList,
  verification: optionalText,
  verificationCommand: optionalText,
  verification_command: optionalText,
  verify: optionalText,
  notes: optionalText,
};

const FIELDS = Object.entries(FIELD_CHECKS);

/**
 * What `prdStorySchema.safeParse(item).data` holds for the schema's own fields, read without
 * zod, when every field is plainly valid (the common case: a story as the skill writes it);
 * `null` when the schema must judge the story (and report its problems). Unknown fields are
 * left out: the story's `extra` is read from the item itself.
 *
 * @param item - one item of the story array, as `JSON.parse` read it.
 */
export function quickStoryInput(item: unknown): PrdStoryInput | null {
  if (!isJsonObject(item)) return null;
  const input: Record<string, unknown> = {};
  for (const [field, check] of FIELDS) {
    const value = check(item[field]);
    if (value === UNSURE) return null;
    if (value !== undefined) input[field] = value;
  }
  return input as PrdStoryInput;
}

/**
 * What the schema of a dependency field (`dependencies`, `dependsOn`, `depends_on`) gives for
 * `value` when it is plainly valid: the ids as a fresh array, `null` or `undefined`; `false`
 * when the schema must judge it.
 *
 * @param value - the field's value.
 */
export function quickStoryIdList(value: unknown): (string | number)[] | null | undefined | false {
  const result = storyIdList(value);
  return result === UNSURE ? false : (result as (string | number)[] | null | undefined);
}

import { closest, distance } from "fastest-levenshtein";
import {
  STATUS_BLOCK_FIELDS,
  STATUS_VALUES,
  type StatusBlock,
  type StatusBlockField,
  TESTS_STATUS_VALUES,
  WORK_TYPES,
} from "./status-block.js";

/** The known-field part of a status block, writable while a block is being read. */
export type StatusBlockValues = {
  -readonly [Key in
    | "status"
    | "tasksCompletedThisLoop"
    | "filesModified"
    | "testsStatus"
    | "workType"
    | "exitSignal"
    | "recommendation"]: StatusBlock[Key];
};

/**
 * Reads one field's value into the block. Returns `null` when the value was stored, or what
 * would have been valid when it is malformed (the field then stays `null`).
 */
export type StatusFieldReader = (value: string, values: StatusBlockValues) => string | null;

/** Quotes that may open an enumerated, numeric or boolean value. */
const OPENING_PUNCTUATION = "\"'\u201c\u2018";

/** Quotes and a final full stop that may close one. */
const CLOSING_PUNCTUATION = "\"'\u201d\u2019.";

/**
 * The value without a trailing parenthesised remark agents add after it: `3 (a.ts, b.ts)`
 * gives `3`. A remark holds no parenthesis. Written as string searches, not as a regex
 * (`\s*\([^()]*\)\s*$`), which backtracks quadratically over a long run of spaces.
 */
function withoutTrailingRemark(value: string): string {
  const trimmed = value.trimEnd();
  if (!trimmed.endsWith(")")) return value;
  const opening = trimmed.lastIndexOf("(", trimmed.length - 2);
  if (opening < 0 || trimmed.indexOf(")", opening + 1) !== trimmed.length - 1) return value;
  return trimmed.slice(0, opening).trimEnd();
}

/** The value without the quotes it starts with and the quotes or full stops it ends with. */
function withoutPunctuation(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && OPENING_PUNCTUATION.includes(value.charAt(start))) start += 1;
  while (end > start && CLOSING_PUNCTUATION.includes(value.charAt(end - 1))) end -= 1;
  return value.slice(start, end);
}

/** The bare value of an enumerated, numeric or boolean field: no remark, quotes or full stop. */
function bareValue(value: string): string {
  return withoutPunctuation(withoutTrailingRemark(value)).trim();
}

/** An enumerated value in canonical form: upper case, spaces and hyphens as underscores. */
function canonicalWord(value: string): string {
  return value
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, "_");
}

/** ` — did you mean X?` when a known word is within two edits of the written one. */
function suggestion(written: string, known: readonly string[]): string {
  if (written === "") return "";
  const nearest = closest(written, [...known]);
  return distance(written, nearest) <= 2 ? `; did you mean ${nearest}?` : "";
}

function enumeratedField<Value extends string>(
  allowed: readonly Value[],
  store: (values: StatusBlockValues, value: Value) => void,
): StatusFieldReader {
  return (value, values) => {
    const word = canonicalWord(bareValue(value));
    const match = allowed.find((candidate) => candidate === word);
    if (match !== undefined) {
      store(values, match);
      return null;
    }
    return `expected one of ${allowed.join(", ")}${suggestion(word, allowed)}`;
  };
}

function countField(store: (values: StatusBlockValues, value: number) => void): StatusFieldReader {
  return (value, values) => {
    const bare = bareValue(value);
    const count = /^\d+$/.test(bare) ? Number(bare) : Number.NaN;
    if (!Number.isSafeInteger(count)) return "expected a whole number, 0 or more";
    store(values, count);
    return null;
  };
}

const readExitSignal: StatusFieldReader = (value, values) => {
  const word = bareValue(value).toLowerCase();
  if (word !== "true" && word !== "false") return "expected true or false";
  values.exitSignal = word === "true";
  return null;
};

const readRecommendation: StatusFieldReader = (value, values) => {
  values.recommendation = value;
  return null;
};

/** How each known field is read, by canonical key. */
export const STATUS_FIELD_READERS: Readonly<Record<StatusBlockField, StatusFieldReader>> =
  Object.freeze({
    STATUS: enumeratedField(STATUS_VALUES, (values, value) => {
      values.status = value;
    }),
    TASKS_COMPLETED_THIS_LOOP: countField((values, value) => {
      values.tasksCompletedThisLoop = value;
    }),
    FILES_MODIFIED: countField((values, value) => {
      values.filesModified = value;
    }),
    TESTS_STATUS: enumeratedField(TESTS_STATUS_VALUES, (values, value) => {
      values.testsStatus = value;
    }),
    WORK_TYPE: enumeratedField(WORK_TYPES, (values, value) => {
      values.workType = value;
    }),
    EXIT_SIGNAL: readExitSignal,
    RECOMMENDATION: readRecommendation,
  });

/** The {@link StatusBlock} property each known field is read into. */
export const STATUS_FIELD_PROPERTIES: Readonly<Record<StatusBlockField, keyof StatusBlockValues>> =
  Object.freeze({
    STATUS: "status",
    TASKS_COMPLETED_THIS_LOOP: "tasksCompletedThisLoop",
    FILES_MODIFIED: "filesModified",
    TESTS_STATUS: "testsStatus",
    WORK_TYPE: "workType",
    EXIT_SIGNAL: "exitSignal",
    RECOMMENDATION: "recommendation",
  });

/**
 * The known field a key names, case, spacing and hyphens aside (`Exit signal` is
 * `EXIT_SIGNAL`).
 *
 * @param key - a key as written, markup removed.
 * @returns the known field, or `null` for an unknown key.
 */
export function knownField(key: string): StatusBlockField | null {
  const canonical = canonicalWord(key);
  return STATUS_BLOCK_FIELDS.find((field) => field === canonical) ?? null;
}

/**
 * The known field an unknown key is probably a misspelling of (within two edits).
 *
 * @param key - an unknown key as written.
 * @returns the known field, or `null` when none is close.
 */
export function misspelledField(key: string): StatusBlockField | null {
  const canonical = canonicalWord(key);
  const nearest = closest(canonical, [...STATUS_BLOCK_FIELDS]);
  const field = STATUS_BLOCK_FIELDS.find((candidate) => candidate === nearest);
  return field !== undefined && distance(canonical, field) <= 2 ? field : null;
}

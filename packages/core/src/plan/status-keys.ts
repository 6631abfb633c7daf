/** The outcome of reading one RALPH_STATUS value. */
export type StatusValueResult<Value> =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly expected: string };

/** How one known RALPH_STATUS key is spelt, read and written. */
export interface StatusKeyDefinition<Value> {
  /** The spelling used when the key is added to a plan. */
  readonly canonical: string;
  /** Reads a raw value (markup removed, trimmed); `""` reads as `null` (not set). */
  readonly parse: (raw: string) => StatusValueResult<Value | null>;
  /** Writes a value as it appears in the plan. */
  readonly format: (value: Value | null) => string;
}

const booleanWords: Readonly<Record<string, boolean>> = {
  true: true,
  yes: true,
  false: false,
  no: false,
};

function parseBoolean(raw: string): StatusValueResult<boolean | null> {
  if (raw === "") return { ok: true, value: null };
  const value = booleanWords[raw.toLowerCase()];
  return value === undefined
    ? { ok: false, expected: "true or false (yes and no are accepted too)" }
    : { ok: true, value };
}

function parseCount(raw: string): StatusValueResult<number | null> {
  if (raw === "") return { ok: true, value: null };
  const value = Number(raw);
  return /^[0-9]+$/u.test(raw) && Number.isSafeInteger(value)
    ? { ok: true, value }
    : { ok: false, expected: "a whole number, 0 or more" };
}

const noTaskWords = new Set(["", "-", "none", "null"]);

function parseCurrentTask(raw: string): StatusValueResult<string | null> {
  return { ok: true, value: noTaskWords.has(raw.toLowerCase()) ? null : raw };
}

/** The RALPH_STATUS keys this SDK understands, by normalised key (see {@link normalizeStatusKey}). */
export const STATUS_KEYS = {
  exit_signal: {
    canonical: "EXIT_SIGNAL",
    parse: parseBoolean,
    format: (value) => String(value ?? false),
  } satisfies StatusKeyDefinition<boolean>,
  completion_indicators: {
    canonical: "completion_indicators",
    parse: parseCount,
    format: (value) => String(value ?? 0),
  } satisfies StatusKeyDefinition<number>,
  current_task: {
    canonical: "current_task",
    parse: parseCurrentTask,
    format: (value) => value ?? "none",
  } satisfies StatusKeyDefinition<string>,
};

/** A normalised known RALPH_STATUS key. */
export type KnownStatusKey = keyof typeof STATUS_KEYS;

/**
 * Normalises a RALPH_STATUS key for matching: lowercased, runs of spaces, `-` and `_`
 * read as one `_` (`Exit Signal`, `exit-signal` and `EXIT_SIGNAL` are all `exit_signal`).
 *
 * @param key - the key as written, markup removed.
 * @returns the normalised key.
 */
export function normalizeStatusKey(key: string): string {
  return key
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/gu, "_");
}

/**
 * Whether a normalised key is one this SDK reads into `PlanStatus` properties.
 *
 * @param key - a normalised key.
 * @returns true for `exit_signal`, `completion_indicators` and `current_task`.
 */
export function isKnownStatusKey(key: string): key is KnownStatusKey {
  return Object.hasOwn(STATUS_KEYS, key);
}

import * as z from "zod";
import { describeValue } from "./describe-value.js";

/**
 * Builders of the config's settings. Each one gives every problem of its setting (wrong
 * type, out of range) one message that says what would be valid and what was found, for
 * example `expected an integer ≥ 0, got "two"`.
 */

/** A zod `error` option whose message names the valid values and the value found. */
function expected(validValues: string) {
  return {
    error: (issue: { readonly input?: unknown }) =>
      `expected ${validValues}, got ${describeValue(issue.input)}`,
  };
}

/** A zod `error` option for a closed set of values: `must be one of wait, exit, got "sleep"`. */
function oneOf(values: readonly (string | number)[], note = "") {
  return {
    error: (issue: { readonly input?: unknown }) =>
      `must be ${values.length === 1 ? "" : "one of "}${values.join(", ")}${note}, got ${describeValue(issue.input)}`,
  };
}

/** Options of an integer setting. */
export interface IntegerSettingOptions {
  /** Smallest valid value, inclusive. */
  readonly minimum: number;
  /** Value used when the key is absent. */
  readonly defaultValue: number;
  /** What the setting means, for the JSON Schema and the docs. */
  readonly description: string;
}

/** An integer setting with an inclusive minimum and a default. */
export function integerSetting(options: IntegerSettingOptions) {
  const message = expected(`an integer ≥ ${options.minimum}`);
  return z
    .int(message)
    .min(options.minimum, message)
    .default(options.defaultValue)
    .describe(options.description);
}

/** Options of a number setting. */
export interface NumberSettingOptions {
  /** Smallest valid value. */
  readonly minimum: number;
  /** Whether the minimum itself is invalid (`> minimum` rather than `≥ minimum`). */
  readonly exclusiveMinimum?: boolean;
  /** Largest valid value, inclusive, if any. */
  readonly maximum?: number;
  /** Value used when the key is absent. */
  readonly defaultValue: number;
  /** What the setting means, for the JSON Schema and the docs. */
  readonly description: string;
}

/** A finite number setting with a minimum, an optional maximum and a default. */
export function numberSetting(options: NumberSettingOptions) {
  const message = expected(numberRange(options));
  const lowerBounded =
    options.exclusiveMinimum === true
      ? z.number(message).gt(options.minimum, message)
      : z.number(message).min(options.minimum, message);
  const bounded =
    options.maximum === undefined ? lowerBounded : lowerBounded.max(options.maximum, message);
  return bounded.default(options.defaultValue).describe(options.description);
}

/** Describes the valid range of a number setting: `a number > 0`, `a number from 0 to 1`. */
function numberRange(options: NumberSettingOptions): string {
  if (options.maximum !== undefined && options.exclusiveMinimum !== true) {
    return `a number from ${options.minimum} to ${options.maximum}`;
  }
  const lower = `a number ${options.exclusiveMinimum === true ? ">" : "≥"} ${options.minimum}`;
  return options.maximum === undefined ? lower : `${lower} and ≤ ${options.maximum}`;
}

/** A cap that is off by default: a number above 0, or `null` for no cap. */
export function optionalCapSetting(description: string) {
  const message = expected("a number > 0, or null for no cap");
  return z.number(message).gt(0, message).nullable().default(null).describe(description);
}

/** An optional whole-number cap (`null` = no cap) that defaults to `null`. */
export function optionalCountCapSetting(description: string) {
  const message = expected("an integer ≥ 1, or null for no cap");
  return z
    .number(message)
    .int(message)
    .gte(1, message)
    .nullable()
    .default(null)
    .describe(description);
}

/** A `true`/`false` setting with a default. */
export function booleanSetting(defaultValue: boolean, description: string) {
  return z.boolean(expected("true or false")).default(defaultValue).describe(description);
}

/** A non-empty text setting (a file path, a name) with a default. */
export function textSetting(defaultValue: string, description: string) {
  const message = expected("a non-empty string");
  return z.string(message).regex(/\S/, message).default(defaultValue).describe(description);
}

/**
 * Where the state is kept: `files`, or a PostgreSQL URL (`postgres://` or `postgresql://`).
 * What the URL reaches is for the CLI to find out when it connects.
 */
export function storeSetting(description: string) {
  const message = expected("files, or a PostgreSQL URL postgres://user@host:5432/database");
  return z
    .string(message)
    .regex(/^(?:files|postgres(?:ql)?:\/\/\S+)$/i, message)
    .default("files")
    .describe(description);
}

/** A list of non-empty strings whose default is a fresh copy of `defaultValue` each time. */
export function textListSetting(defaultValue: readonly string[], description: string) {
  const itemMessage = expected("a non-empty string");
  return z
    .array(z.string(itemMessage).regex(/\S/, itemMessage), expected("a list of strings"))
    .default(() => [...defaultValue])
    .describe(description);
}

/** A setting that takes one of a few strings, with a default. */
export function choiceSetting<const Choice extends string>(
  choices: readonly [Choice, ...Choice[]],
  defaultValue: NoInfer<Choice>,
  description: string,
) {
  return z.enum(choices, oneOf(choices)).default(defaultValue).describe(description);
}

/** The config format's version: only `1` is valid, and it is the default. */
export function versionSetting(description: string) {
  return z
    .literal(1, oneOf([1], " (the only config version)"))
    .default(1)
    .describe(description);
}

/**
 * A section of settings: a strict mapping (unknown keys are errors) that is filled with
 * its settings' defaults when absent.
 */
export function settingsSection<const Shape extends z.ZodRawShape>(
  shape: Shape,
  description: string,
) {
  const section = z.strictObject(shape, expected("a mapping of settings (key: value)"));
  // Every setting has its own default, so `{}` is a valid input; TypeScript cannot see that
  // through the generic shape.
  const empty = {} as z.input<typeof section>;
  return section.prefault(empty).describe(description);
}

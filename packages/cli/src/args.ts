import { type ParseArgsConfig, parseArgs } from "node:util";
import { closeMatch } from "./close-match.js";
import { errorMessage } from "./error-message.js";
import { UsageError } from "./usage-error.js";

/** The options a command accepts, as `node:util`'s `parseArgs` takes them. */
export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

/** A command's parsed arguments. */
export interface ParsedArgs {
  /** Option values by long name (`--max-cost` → `"max-cost"`). */
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  /** The arguments that are not options. */
  readonly positionals: readonly string[];
}

function optionNames(spec: OptionSpec): string[] {
  return Object.keys(spec).map((name) => `--${name}`);
}

function explain(error: unknown, command: string, spec: OptionSpec): string {
  const message = errorMessage(error);
  const unknown = /Unknown option '([^']+)'/.exec(message);
  if (unknown?.[1] !== undefined) {
    const given = unknown[1];
    const names = optionNames(spec);
    const suggestion = given.startsWith("--") ? closeMatch(given, names) : null;
    const hint = suggestion === null ? "" : ` Did you mean ${suggestion}?`;
    return `loop ${command}: unknown option ${given}.${hint} See \`loop ${command} --help\`.`;
  }
  return `loop ${command}: ${message.replace(/\.?$/, ".")} See \`loop ${command} --help\`.`;
}

/**
 * Parses a command's arguments strictly: an unknown option, a missing value or too many
 * positionals is a {@link UsageError} that names the command and suggests the nearest option.
 *
 * @param command - the command's name, for messages.
 * @param args - the arguments after the command's name.
 * @param spec - the options.
 * @param maxPositionals - how many non-option arguments are allowed.
 */
export function parseCommandArgs(
  command: string,
  args: readonly string[],
  spec: OptionSpec,
  maxPositionals: number,
): ParsedArgs {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...args], options: spec, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(explain(error, command, spec));
  }
  if (parsed.positionals.length > maxPositionals) {
    const extra = parsed.positionals.slice(maxPositionals).join(" ");
    throw new UsageError(
      `loop ${command}: unexpected argument${parsed.positionals.length - maxPositionals > 1 ? "s" : ""} ${extra}. See \`loop ${command} --help\`.`,
    );
  }
  return {
    values: parsed.values as Record<string, string | boolean | undefined>,
    positionals: parsed.positionals,
  };
}

/**
 * An option's value as a number, checked.
 *
 * @throws {UsageError} when it is not a number, or below `minimum`.
 */
export function numberOption(
  command: string,
  name: string,
  value: string | boolean | undefined,
  minimum: number,
): number | undefined {
  if (value === undefined) return undefined;
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
  if (!Number.isFinite(number) || number < minimum) {
    throw new UsageError(
      `loop ${command}: --${name} must be a number of at least ${minimum}, got ${JSON.stringify(value)}.`,
    );
  }
  return number;
}

/**
 * A count option (`--events <n>`): a whole number of at least 1, or `undefined` when absent.
 *
 * @throws {UsageError} for anything else, naming the option.
 */
export function countOption(
  command: string,
  name: string,
  value: string | boolean | undefined,
): number | undefined {
  const number = numberOption(command, name, value, 1);
  if (number !== undefined && !Number.isInteger(number)) {
    throw new UsageError(`loop ${command}: --${name} must be a whole number, got ${number}.`);
  }
  return number;
}

/** An option's value as text (`undefined` when absent). */
export function textOption(value: string | boolean | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

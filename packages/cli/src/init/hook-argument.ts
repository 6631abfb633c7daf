import { UsageError } from "../usage-error.js";

/** The values `loop init --hook` takes; the first is the default. */
export const HOOK_MODES = ["print", "install"] as const;

/** What `loop init --hook` does with the Stop hook. */
export type HookMode = (typeof HOOK_MODES)[number];

function isHookMode(value: string | undefined): value is HookMode {
  return (HOOK_MODES as readonly (string | undefined)[]).includes(value);
}

/**
 * Rewrites `loop init`'s arguments so that `--hook`, whose value is optional, parses as a
 * string option: `--hook install` becomes `--hook=install`, a bare `--hook` becomes
 * `--hook=print`. `--hook=<value>` and everything after `--` are left as they are.
 *
 * @param args - the arguments after `init`.
 * @returns the arguments to parse.
 */
export function normalizeHookArgument(args: readonly string[]): string[] {
  const result: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === "--") {
      result.push(...args.slice(index));
      break;
    }
    if (arg !== "--hook") {
      result.push(arg);
      continue;
    }
    const next = args[index + 1];
    if (isHookMode(next)) {
      result.push(`--hook=${next}`);
      index += 1;
    } else {
      result.push(`--hook=${HOOK_MODES[0]}`);
    }
  }
  return result;
}

/**
 * Reads `--hook`'s value.
 *
 * @param value - the parsed option (after {@link normalizeHookArgument}).
 * @returns the mode, or `null` when `--hook` was not given.
 * @throws {UsageError} for a value other than `print` or `install`.
 */
export function readHookMode(value: string | boolean | undefined): HookMode | null {
  if (value === undefined || value === false) return null;
  if (typeof value === "string" && isHookMode(value)) return value;
  throw new UsageError(
    `loop init: --hook takes ${HOOK_MODES.join(" or ")}, got ${JSON.stringify(value)}. See \`loop init --help\`.`,
  );
}

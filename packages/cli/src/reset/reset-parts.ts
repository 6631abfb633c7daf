import { DEFAULT_RESET_PARTS, RESET_PARTS, type ResetPart } from "@loop/core";

/** The options of `loop reset` that name parts: `--breaker`, `--failed`, … and `--all`. */
export const RESET_PART_OPTIONS = {
  breaker: { type: "boolean" },
  failed: { type: "boolean" },
  iterations: { type: "boolean" },
  session: { type: "boolean" },
  cost: { type: "boolean" },
  all: { type: "boolean" },
} as const;

/** The help lines of {@link RESET_PART_OPTIONS}. */
export const RESET_PART_OPTIONS_HELP = [
  "      --breaker            Close the circuit breaker (its streaks back to 0)",
  "      --failed             Forget the given-up tasks and every task's attempts",
  "      --iterations         Iterations back to 0 (limits.max_iterations counts over all",
  "                           runs), with the completion indicators and stop streaks",
  "      --session            Forget the agent's session: the next iteration starts afresh",
  "      --cost               The reported cost back to $0 (limits.max_cost_usd counts over",
  "                           all runs); never part of --all",
  "      --all                --breaker --failed --iterations --session (the default when",
  "                           no part is named)",
].join("\n");

/**
 * The parts `loop reset`'s options name: each part flag given, `--all` for every part but
 * `cost`, and {@link DEFAULT_RESET_PARTS} when none is given.
 *
 * @param values - the parsed options.
 * @returns the parts, each once, in `RESET_PARTS` order.
 */
export function resetPartsOf(
  values: Readonly<Record<string, string | boolean | undefined>>,
): ResetPart[] {
  const named = RESET_PARTS.filter((part) => values[part] === true);
  const all = values.all === true || named.length === 0;
  return RESET_PARTS.filter(
    (part) => named.includes(part) || (all && DEFAULT_RESET_PARTS.includes(part)),
  );
}

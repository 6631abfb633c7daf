import type { Diagnostic } from "../errors/diagnostic.js";
import { lineColumnAt } from "../errors/line-column.js";
import type { StatusSection, StatusValue } from "./status-entries.js";
import { STATUS_KEYS, type StatusKeyDefinition } from "./status-keys.js";

/**
 * The plan's `RALPH_STATUS` section: the loop's own notes in the plan, which the agent
 * updates (for example `EXIT_SIGNAL: true` when it believes all work is done).
 */
export interface PlanStatus {
  /** `EXIT_SIGNAL` (`true`/`false`/`yes`/`no`); `null` when absent or empty. */
  readonly exitSignal: boolean | null;
  /** `completion_indicators` (a whole number, 0 or more); `null` when absent or empty. */
  readonly completionIndicators: number | null;
  /** `current_task`; `null` when absent, empty, `-`, `none` or `null`. */
  readonly currentTask: string | null;
  /**
   * Every entry of the section, key as written (markup removed) → raw value (markup around
   * it removed), unknown keys included. When a key appears twice, the last one wins.
   */
  readonly fields: Readonly<Record<string, string>>;
  /** 1-based line of the section's heading. */
  readonly line: number;
}

/** A {@link PlanStatus} read from a section, with the problems found in its values. */
export interface InterpretedStatus {
  /** The status. */
  readonly status: PlanStatus;
  /** One diagnostic per malformed known value, at the value's line and column. */
  readonly issues: readonly Diagnostic[];
}

/**
 * Reads a RALPH_STATUS section's entries into a {@link PlanStatus}. Known keys are
 * matched case- and spacing-tolerantly; when a key appears more than once, the last
 * entry wins.
 *
 * @param section - the section as written.
 * @param body - the plan's body, to locate malformed values.
 * @returns the status and a diagnostic for each malformed known value.
 */
export function interpretStatus(section: StatusSection, body: string): InterpretedStatus {
  return interpretStatusEntries(section.entries, body, section.heading.position?.start.line ?? 1);
}

/**
 * {@link interpretStatus} on a section's entries.
 *
 * @param entries - the section's entries, in document order.
 * @param body - the plan's body, to locate malformed values.
 * @param line - the 1-based line of the section's heading.
 * @returns the status and a diagnostic for each malformed known value.
 */
export function interpretStatusEntries(
  entries: readonly StatusValue[],
  body: string,
  line: number,
): InterpretedStatus {
  const fields: Record<string, string> = {};
  const issues: Diagnostic[] = [];
  let exitSignal: boolean | null = null;
  let completionIndicators: number | null = null;
  let currentTask: string | null = null;
  for (const entry of entries) {
    fields[entry.key] = entry.value;
    const read = <Value>(definition: StatusKeyDefinition<Value>, previous: Value | null) =>
      readValue(definition, entry, body, issues, previous);
    switch (entry.normalizedKey) {
      case "exit_signal":
        exitSignal = read(STATUS_KEYS.exit_signal, exitSignal);
        break;
      case "completion_indicators":
        completionIndicators = read(STATUS_KEYS.completion_indicators, completionIndicators);
        break;
      case "current_task":
        currentTask = read(STATUS_KEYS.current_task, currentTask);
        break;
    }
  }
  return {
    status: {
      exitSignal,
      completionIndicators,
      currentTask,
      fields,
      line,
    },
    issues,
  };
}

function readValue<Value>(
  definition: StatusKeyDefinition<Value>,
  entry: StatusValue,
  body: string,
  issues: Diagnostic[],
  previous: Value | null,
): Value | null {
  const result = definition.parse(entry.value);
  if (result.ok) return result.value;
  const { line, column } = lineColumnAt(body, entry.valueStart);
  issues.push({
    message: `${entry.key}: expected ${result.expected}, got "${entry.value}"`,
    line,
    column,
  });
  return previous;
}

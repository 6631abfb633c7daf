import type { Diagnostic } from "../errors/diagnostic.js";
import { parseJsonText } from "../state/json-text.js";
import { schemaDiagnostics } from "../state/schema-diagnostics.js";
import { type DecisionEvent, DecisionEventSchema } from "./decision-event.js";

/** Options of {@link parseDecisionEvent}. */
export interface ParseDecisionEventOptions {
  /** The line's 1-based number in the log, put into the problems. */
  readonly line?: number | undefined;
}

/** The answer of {@link parseDecisionEvent}: the event, or what is wrong with the line. */
export type ParsedDecisionEvent =
  | {
      /** The line is a valid decision event. */
      readonly ok: true;
      /** The event. */
      readonly event: DecisionEvent;
    }
  | {
      /** The line is not a valid decision event. */
      readonly ok: false;
      /** The first problem: a JSON syntax error at its column, or a schema problem at its path. */
      readonly problem: Diagnostic;
      /** Every problem found (at least one). */
      readonly problems: readonly Diagnostic[];
    };

function failure(problems: readonly Diagnostic[], line: number | undefined): ParsedDecisionEvent {
  // The line number of a JSON syntax error is 1 within the line: replace it with the log's.
  const located = problems.map(
    (problem): Diagnostic => ({
      message: problem.message,
      ...(line === undefined ? {} : { line }),
      ...(problem.column === undefined ? {} : { column: problem.column }),
      ...(problem.path === undefined ? {} : { path: problem.path }),
    }),
  );
  const [problem = { message: "invalid line" }] = located;
  return { ok: false, problem, problems: located };
}

/**
 * Reads one line of `decision.log`, for readers such as `loop status` and the monitor. Never
 * throws: a line that is not JSON, or not a valid event (an unknown event name, a bad payload),
 * gives its problem, located at its column or key path, and the reader goes on with the next.
 *
 * @param line - one line of the log (a trailing `\r` is fine).
 * @param options - the line's number, for the problems.
 * @returns the typed event, or the problems.
 * @example
 * ```ts
 * for (const [index, line] of text.split("\n").entries()) {
 *   if (line.trim() === "") continue;
 *   const parsed = parseDecisionEvent(line, { line: index + 1 });
 *   if (parsed.ok) show(parsed.event);
 *   else warn(formatDiagnostic(parsed.problem, "decision.log"));
 * }
 * ```
 */
export function parseDecisionEvent(
  line: string,
  options?: ParseDecisionEventOptions | null,
): ParsedDecisionEvent {
  const lineNumber = options?.line;
  if (typeof line !== "string") {
    return failure([{ message: "expected a line of text" }], lineNumber);
  }
  if (line.trim() === "") return failure([{ message: "empty line" }], lineNumber);
  const parsed = parseJsonText(line);
  if (!parsed.ok) return failure([parsed.problem], lineNumber);
  const result = DecisionEventSchema.safeParse(parsed.value);
  if (result.success) return { ok: true, event: result.data };
  return failure(schemaDiagnostics(result.error.issues, parsed.value), lineNumber);
}

import { type Diagnostic, formatDiagnostic } from "../errors/diagnostic.js";
import { parseJsonText } from "./json-text.js";
import { LOOP_STATE_SCHEMA_VERSION, type LoopState, LoopStateSchema } from "./loop-state.js";
import { schemaDiagnostics } from "./schema-diagnostics.js";
import { StateValidationError } from "./state-validation-error.js";

/** The store key of `loop_state.json`. */
export const LOOP_STATE_KEY = "loop_state";

/** The outcome of {@link checkState} and {@link readStateText}. */
export type StateCheck =
  | { readonly ok: true; readonly state: LoopState }
  | { readonly ok: false; readonly issues: readonly Diagnostic[] };

/**
 * Throws when `value` was written by a newer, unknown schema version: such a document is not
 * corrupt, and recovering from it (or starting fresh over it) would destroy a newer loop's state.
 */
function refuseNewerVersion(value: unknown, terminalId: string | undefined): void {
  if (typeof value !== "object" || value === null) return;
  const version = (value as Record<string, unknown>).schema_version;
  if (typeof version !== "number" || !Number.isInteger(version)) return;
  if (version <= LOOP_STATE_SCHEMA_VERSION) return;
  throw new StateValidationError({
    terminalId,
    issues: [
      {
        path: ["schema_version"],
        message: `written by a newer version of the loop SDK (schema_version ${version}); this version reads schema_version ${LOOP_STATE_SCHEMA_VERSION}. Upgrade @loop/core, or move the file away to start fresh.`,
      },
    ],
  });
}

/**
 * Checks a value against {@link LoopStateSchema}.
 *
 * @param value - the parsed document.
 * @param terminalId - named in the error for a newer schema version.
 * @throws {StateValidationError} when the document has a newer `schema_version`.
 */
export function checkState(value: unknown, terminalId?: string): StateCheck {
  refuseNewerVersion(value, terminalId);
  const result = LoopStateSchema.safeParse(value);
  if (result.success) return { ok: true, state: result.data };
  return { ok: false, issues: schemaDiagnostics(result.error.issues, value) };
}

/**
 * Parses and checks the text of a `loop_state` document.
 *
 * @param text - the stored text.
 * @param terminalId - named in the error for a newer schema version.
 * @throws {StateValidationError} when the document has a newer `schema_version`.
 */
export function readStateText(text: string, terminalId?: string): StateCheck {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, issues: [parsed.problem] };
  return checkState(parsed.value, terminalId);
}

/** One line naming every problem: `loop_state.json completion_indicators: expected …; …`. */
export function describeProblems(issues: readonly Diagnostic[], file = "loop_state.json"): string {
  return issues.map((issue) => formatDiagnostic(issue, file)).join("; ");
}

/**
 * The text a state document is stored as: JSON indented by two spaces, ending with a newline.
 *
 * @throws {StateValidationError} when the value cannot be written as JSON (a cycle, a BigInt).
 */
export function serializeDocument(
  value: unknown,
  document: string,
  terminalId: string | undefined,
): string {
  let text: string | undefined;
  let cause: unknown;
  try {
    text = JSON.stringify(value, null, 2);
  } catch (error) {
    cause = error;
  }
  if (text === undefined) {
    const reason = cause instanceof Error ? `: ${cause.message}` : "";
    throw new StateValidationError({
      document,
      terminalId,
      cause,
      issues: [{ path: [], message: `cannot be written as JSON${reason}` }],
    });
  }
  return `${text}\n`;
}

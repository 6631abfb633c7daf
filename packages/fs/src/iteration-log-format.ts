import { redactSecrets } from "@loop/core";
import type { IterationLogEntry } from "./iteration-log-entry.js";

/** The first line of every iteration log; the number is the format's version. */
export const ITERATION_LOG_FIRST_LINE = "# loop iteration log v1";
/** The line between the header and the agent's output. */
export const ITERATION_LOG_OUTPUT_LINE = "--- output ---";

/** How long a header value may be (a long error is cut; the output below has it whole). */
const VALUE_LENGTH = 1000;

/** A header value on one line: line breaks as `\n`, cut to {@link VALUE_LENGTH}. */
function oneLine(value: string): string {
  const flat = value.replace(/\r?\n|\r/g, "\\n");
  return flat.length > VALUE_LENGTH ? `${flat.slice(0, VALUE_LENGTH - 1)}…` : flat;
}

function iso(epochMs: number): string {
  return Number.isFinite(epochMs) ? new Date(epochMs).toISOString() : "unknown";
}

function known(value: number | null | undefined, text = String(value)): string {
  return value === undefined || value === null || !Number.isFinite(value) ? "unknown" : text;
}

/** The header's fields, in order: `[key, value]`. */
function headerFields(entry: IterationLogEntry, terminalId: string): [string, string][] {
  const { result, decision } = entry;
  const completed = entry.tasksCompleted ?? [];
  const tokens = result.tokens;
  const seconds = (entry.endedAt - entry.startedAt) / 1000;
  return [
    ["iteration", String(entry.iteration)],
    ["kind", entry.kind],
    ["task", entry.taskId ?? "none"],
    ["attempt", String(entry.attempt)],
    ["terminal", terminalId],
    ["started_at", iso(entry.startedAt)],
    ["ended_at", iso(entry.endedAt)],
    ["duration_s", known(seconds, seconds.toFixed(1))],
    ["success", String(result.success)],
    [
      "decision",
      decision === undefined || decision === null
        ? "unknown"
        : decision.exit
          ? `exit ${decision.reason ?? "unknown"}`
          : "continue",
    ],
    ["cost_usd", known(result.costUsd)],
    ["tokens", tokens === undefined ? "unknown" : `${tokens.input} in, ${tokens.output} out`],
    ["files_changed", known(result.filesChanged)],
    ["tasks_completed", completed.length === 0 ? "none" : completed.join(", ")],
    ["error", result.error === undefined || result.error === "" ? "none" : result.error],
    ["output", result.raw === undefined ? "answer" : "raw"],
  ];
}

/**
 * The text of an iteration's log: the header — {@link ITERATION_LOG_FIRST_LINE}, then one
 * `key: value` line per field (`iteration`, `kind`, `task`, `attempt`, `terminal`, `started_at`,
 * `ended_at`, `duration_s`, `success`, `decision`, `cost_usd`, `tokens`, `files_changed`,
 * `tasks_completed`, `error`, `output`) — then {@link ITERATION_LOG_OUTPUT_LINE} and the agent's
 * raw output as it printed it (`output: raw`), or its answer text when the executor keeps no raw
 * output (`output: answer`), obvious credentials redacted (`redactSecrets`). Values are one line each (line breaks written as `\n`); an unknown
 * value is `unknown`, an absent one `none`.
 *
 * @param entry - the iteration.
 * @param terminalId - the terminal whose loop ran it.
 * @returns the file's text, ending with a newline.
 */
export function formatIterationLog(entry: IterationLogEntry, terminalId: string): string {
  const lines = headerFields(entry, terminalId).map(
    ([key, value]) => `${key}: ${redactSecrets(oneLine(value))}`,
  );
  // The agent's words as it printed them, but for obvious credentials (redactSecrets).
  const body = redactSecrets(entry.result.raw ?? entry.result.output);
  const end = body === "" || body.endsWith("\n") ? "" : "\n";
  return `${[ITERATION_LOG_FIRST_LINE, ...lines, ITERATION_LOG_OUTPUT_LINE].join("\n")}\n${body}${end}`;
}

/**
 * The header fields of an iteration log's text (or of its start: the header is enough).
 *
 * @param text - the file's text, from its first line.
 * @returns the fields by key, or `null` when the text does not start like an iteration log.
 */
export function parseIterationLogHeader(text: string): Map<string, string> | null {
  const lines = text.split("\n");
  if (lines[0]?.replace(/\r$/, "") !== ITERATION_LOG_FIRST_LINE) return null;
  const fields = new Map<string, string>();
  for (const line of lines.slice(1)) {
    if (line === ITERATION_LOG_OUTPUT_LINE) return fields;
    const colon = line.indexOf(": ");
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 2));
  }
  return fields;
}

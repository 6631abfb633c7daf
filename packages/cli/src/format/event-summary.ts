import type {
  DecisionEvent,
  DecisionEventName,
  DecisionEventOf,
  DecisionEventPayloads,
} from "@loop/core";
import { oneLine } from "./fit-line.js";
import { formatDuration } from "./format-duration.js";
import { plural } from "./plural.js";
import { summarizeReset } from "./reset-summary.js";

/** One function per event name: a short line saying what its payload decided. */
type EventSummaries = {
  readonly [Name in DecisionEventName]: (payload: DecisionEventPayloads[Name]) => string;
};

const SUMMARIES: EventSummaries = {
  iteration_start: (payload) =>
    `#${payload.iteration} ${payload.current_task_id ?? "wrap-up (no task)"} of ${plural(payload.total_tasks, "task")}${payload.branch === undefined ? "" : ` on ${payload.branch}`}`,
  iteration_end: (payload) =>
    `#${payload.iteration} ${payload.tasks_completed.length} done, ${payload.tasks_failed.length} failed → ${
      payload.should_exit ? `exit: ${payload.exit_reason ?? "unknown"}` : "continue"
    }`,
  loop_exit: (payload) =>
    `${payload.exit_reason} after ${plural(payload.total_iterations, "iteration")}, ${plural(payload.total_tasks_completed, "task")} completed`,
  error: (payload) =>
    `${payload.error_type}: ${payload.error_message}${payload.current_task_id === null ? "" : ` (${payload.current_task_id})`}`,
  rate_limit_wait: (payload) =>
    `${payload.calls_made}/${payload.max_calls_per_hour} calls this hour, waits ${formatDuration(payload.wait_ms)}`,
  usage_limit_wait: (payload) => `waits ${formatDuration(payload.wait_ms)}: ${payload.message}`,
  task_failed: (payload) =>
    `${payload.task_id} after ${plural(payload.attempts, "attempt")}: ${payload.reason}${payload.kept_branch === undefined ? "" : `; work kept on ${payload.kept_branch}`}`,
  state_recovered: (payload) => `from ${payload.from}: ${payload.problem}`,
  lock_takeover: (payload) =>
    `from pid ${payload.previous_holder.pid} on ${payload.previous_holder.host}`,
  verification: (payload) =>
    payload.passed
      ? "passed"
      : `failed: ${plural(payload.unmet.length, "unmet requirement")}, ${plural(payload.concerns.length, "concern")}`,
  config_warning: (payload) => `${payload.code}: ${payload.message}`,
  state_reset: (payload) => summarizeReset(payload),
  previous_agent_stopped: (payload) =>
    `${payload.command} of iteration ${payload.iteration}${payload.pgid === null ? "" : ` (group ${payload.pgid})`}: ${payload.pids.length === 1 ? "1 process" : `${payload.pids.length} processes`} ${payload.stopped ? "stopped" : "not stopped"} with ${payload.signal}`,
  task_integrated: (payload) =>
    `${payload.task_id} from ${payload.branch}: ${plural(payload.files_changed, "file")}${payload.commit === null ? "" : ` (${payload.commit.slice(0, 12)})`}${payload.resolved ? ", a conflict resolved by the merge agent" : ""}`,
  merge_conflict: (payload) =>
    `${payload.task_id} conflicts in ${payload.files.join(", ")}${payload.merge_agent ? " (the merge agent left it unresolved)" : ""}; kept on ${payload.kept_branch}, runs again`,
  workspaces_recovered: (payload) => summarizeRecovery(payload),
  task_retried: (payload) =>
    `${payload.task_id} runs again from ${payload.from_branch} (now ${payload.branch})${payload.was_given_up ? `; no longer given up, ${plural(payload.attempts, "attempt")} forgotten` : ""}`,
};

/** `resumed TASK-6; kept TASK-7 (loop/kept/TASK-7/1); integration of TASK-4 rolled back`. */
function summarizeRecovery(payload: DecisionEventPayloads["workspaces_recovered"]): string {
  const parts: string[] = [];
  if (payload.resumed.length > 0) parts.push(`resumed ${payload.resumed.join(", ")}`);
  for (const kept of payload.kept) parts.push(`kept ${kept.task_id} (${kept.branch})`);
  if (payload.removed.length > 0) parts.push(`removed ${payload.removed.join(", ")}`);
  for (const integration of payload.integrations) {
    parts.push(`integration of ${integration.task_id} ${integration.outcome.replace("_", " ")}`);
  }
  return parts.join("; ");
}

function summarizeOf<Name extends DecisionEventName>(event: DecisionEventOf<Name>): string {
  return SUMMARIES[event.event](event.payload);
}

/**
 * A short, one-line summary of a decision event's payload, for the monitor's event list:
 * `#3 TASK-002 of 5 tasks`, `TASK-003 after 3 attempts: tests still fail`. Control characters
 * from messages are replaced, so the line is safe to print.
 *
 * @param event - an event read from the decision log.
 */
export function summarizeEvent(event: DecisionEvent): string {
  return oneLine(summarizeOf(event));
}

import type { StopHookInput } from "@loop/claude";
import { errorMessage } from "../error-message.js";

/** What {@link parseStopHookInput} made of the hook's standard input. */
export type ParsedStopHookInput =
  | { readonly ok: true; readonly input: StopHookInput }
  | { readonly ok: false; readonly problem: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function nonEmptyText(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/** A value as messages show it: JSON, cut after 60 characters. */
function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  const json = JSON.stringify(value);
  return json.length > 60 ? `${json.slice(0, 59)}…` : json;
}

function checkFields(value: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (!nonEmptyText(value.session_id)) {
    problems.push(`"session_id" must be a non-empty string, got ${describe(value.session_id)}`);
  }
  if (!nonEmptyText(value.cwd)) {
    problems.push(`"cwd" must be a non-empty string, got ${describe(value.cwd)}`);
  }
  const transcript = value.transcript_path;
  if (transcript !== undefined && transcript !== null && typeof transcript !== "string") {
    problems.push(`"transcript_path" must be a string, got ${describe(transcript)}`);
  }
  const event = value.hook_event_name;
  if (event !== undefined && event !== "Stop") {
    problems.push(
      `"hook_event_name" is ${describe(event)}: \`loop hook stop\` handles the Stop event only; register it under "Stop"`,
    );
  }
  return problems;
}

/**
 * Reads the JSON Claude Code gives a Stop hook on standard input:
 * `{ session_id, transcript_path, cwd, hook_event_name: "Stop", stop_hook_active, … }`.
 * `session_id` and `cwd` are required; other fields Claude Code adds are ignored. Never throws:
 * a broken input is a problem to report while letting the session stop.
 *
 * @param text - standard input, as read.
 * @returns the input, or every problem found in one message.
 */
export function parseStopHookInput(text: string): ParsedStopHookInput {
  if (text.trim() === "") {
    return { ok: false, problem: "no input: Claude Code passes the Stop hook's JSON on stdin" };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = errorMessage(error);
    return { ok: false, problem: `the input is not JSON (${reason})` };
  }
  if (!isRecord(value)) {
    return { ok: false, problem: `expected a JSON object, got ${describe(value)}` };
  }
  const problems = checkFields(value);
  if (problems.length > 0) return { ok: false, problem: problems.join("; ") };
  const transcript = value.transcript_path;
  return {
    ok: true,
    input: {
      session_id: value.session_id as string,
      cwd: value.cwd as string,
      transcript_path: typeof transcript === "string" ? transcript : null,
      stop_hook_active: value.stop_hook_active === true,
      hook_event_name: "Stop",
    },
  };
}

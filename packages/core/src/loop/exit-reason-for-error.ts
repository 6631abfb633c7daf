import { LoopError } from "../errors/loop-error.js";
import type { ExitReason } from "../policy/exit-reasons.js";

/** The exit reason of an error that stops the loop: by the typed error's code. */
export function reasonForError(error: unknown): ExitReason {
  if (!LoopError.isInstance(error)) return "error";
  if (error.code.startsWith("PLAN") || error.code.startsWith("PRD")) return "plan_error";
  if (error.code.startsWith("CONFIG") || error.code === "PROMPT_TEMPLATE_ERROR")
    return "config_error";
  if (error.code.startsWith("STATE") || error.code === "UNSUPPORTED_STORE") return "state_error";
  if (error.code === "SHARED_LIMITS_ERROR" || error.code === "UNSUPPORTED_SHARED_LIMITS")
    return "limits_error";
  return "error";
}

/** `error` as an `Error` (a thrown non-error becomes one with its text). */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

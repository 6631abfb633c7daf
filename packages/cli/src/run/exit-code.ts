import { isErrorReason, type LoopResult } from "@loop/core";
import { CLI_EXIT_CODES } from "../exit-codes.js";

/**
 * The exit code of `loop run` for a finished loop: `complete` (0) when the plan is complete,
 * `aborted` (130) after Ctrl+C or SIGTERM, `error` (1) when an error stopped it, `incomplete`
 * (3) for every other exit (a safety limit, blocked, circuit open, usage limit…).
 */
export function exitCodeFor(result: Pick<LoopResult, "exitReason" | "complete">): number {
  if (result.exitReason === "aborted") return CLI_EXIT_CODES.aborted;
  if (isErrorReason(result.exitReason)) return CLI_EXIT_CODES.error;
  return result.complete ? CLI_EXIT_CODES.complete : CLI_EXIT_CODES.incomplete;
}

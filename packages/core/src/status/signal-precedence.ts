import type { ExitSignal } from "./response-signals.js";
import type { StatusBlock } from "./status-block.js";

/** What the precedence rules decide from, and the contradictions they record. */
export interface PrecedenceInput {
  /** The answer's status block, or `null`. */
  readonly statusBlock: StatusBlock | null;
  /** Whether the prose keeps the caller's completion promise. */
  readonly promiseKept: boolean;
  /** How many strong completion statements the prose makes. */
  readonly completionIndicatorCount: number;
  /** Where to record each contradiction settled. */
  readonly contradictions: string[];
}

/**
 * The exit signal an answer carries, in this order of precedence:
 * 1. `EXIT_SIGNAL: false` — `{ value: false }`, whatever `STATUS`, the promise or the prose say;
 * 2. `STATUS: IN_PROGRESS` with `EXIT_SIGNAL: true` or a kept promise — `{ value: false }`
 *    (stopping cannot be undone, going on can);
 * 3. `EXIT_SIGNAL: true` — `{ value: true, source: "status_block" }` (also with `STATUS:
 *    BLOCKED`: the agent bails out, as the ralph-loop skill asks it to);
 * 4. a kept completion promise — `{ value: true, source: "promise_tag" }`;
 * 5. otherwise `null`. `STATUS: COMPLETE` alone is a done signal, not an exit signal.
 *
 * @param input - the block, the promise and where to record contradictions.
 * @returns the exit signal, or `null`.
 */
export function resolveExitSignal(input: PrecedenceInput): ExitSignal | null {
  const { statusBlock, promiseKept, contradictions } = input;
  const declared = statusBlock?.exitSignal ?? null;
  const status = statusBlock?.status ?? null;
  if (declared === false) {
    if (status === "COMPLETE") {
      contradictions.push("STATUS: COMPLETE contradicts EXIT_SIGNAL: false; EXIT_SIGNAL wins");
    }
    if (promiseKept) {
      contradictions.push(
        "the completion promise contradicts EXIT_SIGNAL: false; EXIT_SIGNAL wins",
      );
    }
    return { value: false, source: "status_block" };
  }
  if (status === "IN_PROGRESS" && (declared === true || promiseKept)) {
    const claim = declared === true ? "EXIT_SIGNAL: true" : "the completion promise";
    contradictions.push(`${claim} contradicts STATUS: IN_PROGRESS; the loop goes on`);
    return { value: false, source: "status_block" };
  }
  if (declared === true) return { value: true, source: "status_block" };
  if (promiseKept) return { value: true, source: "promise_tag" };
  return null;
}

/**
 * Whether the answer says the work is done, in this order of precedence:
 * 1. an exit signal of `false` — not done;
 * 2. `STATUS: IN_PROGRESS` or `STATUS: BLOCKED` — not done, whatever the prose says;
 * 3. `STATUS: COMPLETE` — done;
 * 4. an exit signal of `true` — done;
 * 5. otherwise, done when the prose makes a strong completion statement.
 *
 * @param input - the block, the completion statements and where to record contradictions.
 * @param exitSignal - the answer's exit signal, from {@link resolveExitSignal}.
 * @returns `true` when the answer is a done signal.
 */
export function resolveDoneSignal(input: PrecedenceInput, exitSignal: ExitSignal | null): boolean {
  const { statusBlock, completionIndicatorCount, contradictions } = input;
  const status = statusBlock?.status ?? null;
  const overruledPhrases = (by: string): false => {
    if (completionIndicatorCount > 0) {
      contradictions.push(`completion statements in the prose are overruled by ${by}`);
    }
    return false;
  };
  if (exitSignal?.value === false) {
    return overruledPhrases(
      statusBlock?.exitSignal === false ? "EXIT_SIGNAL: false" : "STATUS: IN_PROGRESS",
    );
  }
  if (status === "IN_PROGRESS" || status === "BLOCKED")
    return overruledPhrases(`STATUS: ${status}`);
  if (status === "COMPLETE" || exitSignal?.value === true) return true;
  return completionIndicatorCount > 0;
}

import type { ResponseSignals } from "../status/response-signals.js";

/** What one iteration did, as far as completion indicators are concerned. */
export interface CompletionIndicatorInput {
  /** Tasks completed in the iteration (boxes newly checked, or reported complete). */
  readonly tasksCompleted: number;
  /** The analysis of the agent's answer, `null` when the execution failed without one. */
  readonly signals: Pick<ResponseSignals, "doneSignal" | "exitSignal"> | null;
}

/**
 * Whether an iteration adds one to `completion_indicators` (at most one per iteration):
 *
 * - it completed at least one task; or
 * - the agent signalled completion — a done signal, or an exit signal of `true` — with no
 *   contradicting `EXIT_SIGNAL: false`.
 *
 * So the seed's sample run (two iterations, each completing one task) reaches the default
 * `min_completion_indicators` of 2 on its second iteration, and an agent that repeats "all done"
 * while leaving every box open still earns indicators only while it does not contradict itself.
 */
export function countsAsCompletionIndicator(input: CompletionIndicatorInput): boolean {
  if (input.tasksCompleted > 0) return true;
  const signals = input.signals;
  if (signals === null || signals.exitSignal?.value === false) return false;
  return signals.doneSignal || signals.exitSignal?.value === true;
}

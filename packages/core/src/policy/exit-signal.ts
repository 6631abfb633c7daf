import type { ResponseSignals } from "../status/response-signals.js";

/** Where the loop's view of EXIT_SIGNAL came from. */
export type ExitSignalOrigin = "plan" | "status_block" | "promise_tag";

/** EXIT_SIGNAL as the policy sees it, from the plan and the agent's last answer together. */
export interface ResolvedExitSignal {
  /** Whether the loop may treat the work as signalled complete. */
  readonly value: boolean;
  /** Which statement decided it; `null` when nobody gave any. */
  readonly source: ExitSignalOrigin | null;
}

/**
 * Combines the plan's RALPH_STATUS `EXIT_SIGNAL` (loop-code: the agent edits the plan) with the
 * exit signal of the agent's last answer (ralph_loop.sh: its `---RALPH_STATUS---` block, or a
 * completion promise):
 *
 * 1. an explicit `false` in the last answer wins — it is the agent's newest word, and a stale
 *    `true` in the plan must not end a loop the agent says is unfinished;
 * 2. otherwise a `true` in the last answer;
 * 3. otherwise the plan's value;
 * 4. otherwise `false`, with no source.
 *
 * @param planStatus - the plan's RALPH_STATUS section, or `null` when it has none.
 * @param signals - the analysis of the agent's last answer, or `null` before the first one.
 */
export function resolveExitSignal(
  planStatus: { readonly exitSignal: boolean | null } | null | undefined,
  signals: Pick<ResponseSignals, "exitSignal"> | null | undefined,
): ResolvedExitSignal {
  const answer = signals?.exitSignal ?? null;
  if (answer !== null) return { value: answer.value, source: answer.source };
  const planned = planStatus?.exitSignal ?? null;
  if (planned !== null) return { value: planned, source: "plan" };
  return { value: false, source: null };
}

import type { z } from "zod";
import { initialStopCounters, type StopCounters } from "../policy/stop-counters.js";
import { countField, sectionField } from "./state-fields.js";

/**
 * `loop_state.json`'s `stop_counters`: the policy's {@link StopCounters} in snake_case — the
 * streaks behind the ralph_loop.sh exit detectors (its `.exit_signals` file). They belong to one
 * run: `startRun` resets them, so signals of a finished run never end a new one.
 */
export const PersistedStopCountersSchema = sectionField(
  {
    test_only_streak: countField("Iterations in a row that only ran tests."),
    done_signal_streak: countField("Iterations in a row whose answer said the work is done."),
    question_only_streak: countField("Iterations in a row in which the agent only asked."),
    exit_signal_streak: countField(
      "Answers in a row whose status block wrote EXIT_SIGNAL: true, whatever STATUS said.",
    ).optional(),
  },
  "The stop detectors' streaks in the current run.",
);

/** `loop_state.json`'s `stop_counters`, as persisted (snake_case). */
export type PersistedStopCounters = z.output<typeof PersistedStopCountersSchema>;

/**
 * Reads the persisted `stop_counters` as the policy's {@link StopCounters}; absent counters are
 * all zero.
 *
 * @param persisted - `state.stop_counters`, possibly absent.
 * @returns the counters, camelCase.
 */
export function toStopCounters(persisted: PersistedStopCounters | null | undefined): StopCounters {
  if (persisted === null || persisted === undefined) return initialStopCounters();
  return {
    testOnlyStreak: persisted.test_only_streak,
    doneSignalStreak: persisted.done_signal_streak,
    questionOnlyStreak: persisted.question_only_streak,
    exitSignalStreak: persisted.exit_signal_streak ?? 0,
  };
}

/**
 * Writes the policy's {@link StopCounters} as `loop_state.json`'s `stop_counters`.
 *
 * @param counters - the counters, as `updateStopCounters` returns them.
 * @returns the persisted form, snake_case.
 */
export function fromStopCounters(counters: StopCounters): PersistedStopCounters {
  return {
    test_only_streak: counters.testOnlyStreak,
    done_signal_streak: counters.doneSignalStreak,
    question_only_streak: counters.questionOnlyStreak,
    exit_signal_streak: counters.exitSignalStreak ?? 0,
  };
}

import type { ResponseSignals } from "../status/response-signals.js";

/**
 * The streaks behind the ralph_loop.sh exit detectors and the `needs_input` stop: plain,
 * serialisable data kept in the loop state.
 */
export interface StopCounters {
  /** Iterations in a row that only ran tests and completed no task. */
  readonly testOnlyStreak: number;
  /** Iterations in a row whose answer said the work is done, and which completed no task. */
  readonly doneSignalStreak: number;
  /** Iterations in a row in which the agent only asked questions. */
  readonly questionOnlyStreak: number;
  /**
   * Answers in a row whose status block wrote `EXIT_SIGNAL: true`, whatever its `STATUS` says:
   * repeated with every required task checked, it ends the loop though `STATUS: IN_PROGRESS`
   * contradicts it (see `gateChecks`). Absent (0) in counters from before it existed.
   */
  readonly exitSignalStreak?: number | undefined;
}

/** What one iteration tells the stop detectors. */
export interface StopObservation {
  /** The analysis of the agent's answer; `null` when the execution failed without one. */
  readonly signals:
    | (Pick<ResponseSignals, "testOnly" | "doneSignal" | "askingQuestions"> &
        Partial<Pick<ResponseSignals, "statusBlock">>)
    | null;
  /** Tasks completed in the iteration. */
  readonly tasksCompleted: number;
  /** Files changed in the iteration (commits included). */
  readonly filesChanged: number;
}

/** Counters with every streak at zero. */
export function initialStopCounters(): StopCounters {
  return { testOnlyStreak: 0, doneSignalStreak: 0, questionOnlyStreak: 0, exitSignalStreak: 0 };
}

/**
 * Whether the agent only asked questions: it asked at least one and made no progress (no task
 * completed, no file changed). The next prompt then tells it that nobody will answer and to
 * decide and note its choice.
 */
export function isQuestionOnly(observation: StopObservation): boolean {
  return (
    observation.signals?.askingQuestions === true &&
    observation.tasksCompleted === 0 &&
    observation.filesChanged === 0
  );
}

/**
 * The counters after one more iteration (pure):
 * - a test-only answer that completed no task grows `testOnlyStreak` (writing the tests a task
 *   asks for and checking its box is progress, not saturation); anything else resets it;
 * - a done signal in an iteration that completed no task grows `doneSignalStreak`; an answer
 *   without one resets it, and so does an iteration that completed a task (an agent that says
 *   "complete" while it checks box after box is working, not stuck on a claim);
 * - a question-only iteration ({@link isQuestionOnly}) grows `questionOnlyStreak`; anything else
 *   resets it;
 * - an answer whose status block writes `EXIT_SIGNAL: true` grows `exitSignalStreak`; anything
 *   else resets it.
 */
export function updateStopCounters(
  counters: StopCounters,
  observation: StopObservation,
): StopCounters {
  const signals = observation.signals;
  const testOnly = signals?.testOnly === true && observation.tasksCompleted === 0;
  return {
    testOnlyStreak: testOnly ? counters.testOnlyStreak + 1 : 0,
    doneSignalStreak:
      signals?.doneSignal === true && observation.tasksCompleted === 0
        ? counters.doneSignalStreak + 1
        : 0,
    questionOnlyStreak: isQuestionOnly(observation) ? counters.questionOnlyStreak + 1 : 0,
    exitSignalStreak:
      signals?.statusBlock?.exitSignal === true ? (counters.exitSignalStreak ?? 0) + 1 : 0,
  };
}

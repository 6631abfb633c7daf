import { describe, expect, it } from "vitest";
import { resolveConfig } from "../config/resolve-config.js";
import { analyzeResponse } from "../status/analyze-response.js";
import { shouldExit } from "./should-exit.js";
import {
  initialStopCounters,
  isQuestionOnly,
  type StopCounters,
  type StopObservation,
  updateStopCounters,
} from "./stop-counters.js";

type Signals = NonNullable<StopObservation["signals"]>;

const quiet: Signals = { testOnly: false, doneSignal: false, askingQuestions: false };

function observe(
  signals: Partial<Signals> | null,
  tasksCompleted = 0,
  filesChanged = 0,
): StopObservation {
  return {
    signals: signals === null ? null : { ...quiet, ...signals },
    tasksCompleted,
    filesChanged,
  };
}

const streaks = (testOnly: number, done: number, question: number, exit = 0): StopCounters => ({
  testOnlyStreak: testOnly,
  doneSignalStreak: done,
  questionOnlyStreak: question,
  exitSignalStreak: exit,
});

/** A status block that writes `EXIT_SIGNAL`, as `parseStatusBlock` gives it (only that read). */
const block = (exitSignal: boolean) =>
  ({ exitSignal }) as unknown as NonNullable<Signals["statusBlock"]>;

describe("isQuestionOnly", () => {
  const cases: { name: string; observation: StopObservation; expected: boolean }[] = [
    {
      name: "a question and no progress",
      observation: observe({ askingQuestions: true }),
      expected: true,
    },
    {
      name: "a question with a task completed",
      observation: observe({ askingQuestions: true }, 1, 0),
      expected: false,
    },
    {
      name: "a question with files changed",
      observation: observe({ askingQuestions: true }, 0, 2),
      expected: false,
    },
    { name: "no question, no progress", observation: observe({}), expected: false },
    { name: "no answer at all (the run failed)", observation: observe(null), expected: false },
  ];

  it.each(cases)("$name → $expected", ({ observation, expected }) => {
    expect(isQuestionOnly(observation)).toBe(expected);
  });
});

describe("updateStopCounters", () => {
  it("starts with every streak at zero", () => {
    expect(initialStopCounters()).toEqual(streaks(0, 0, 0));
  });

  const cases: {
    name: string;
    before: StopCounters;
    observation: StopObservation;
    after: StopCounters;
  }[] = [
    {
      name: "a test-only answer with no task completed grows testOnlyStreak",
      before: streaks(2, 0, 0),
      observation: observe({ testOnly: true }),
      after: streaks(3, 0, 0),
    },
    {
      name: "a test-only answer that completed a task resets testOnlyStreak (progress)",
      before: streaks(2, 0, 0),
      observation: observe({ testOnly: true }, 1, 3),
      after: streaks(0, 0, 0),
    },
    {
      name: "a test-only answer that changed files but completed no task still grows it",
      before: streaks(1, 0, 0),
      observation: observe({ testOnly: true }, 0, 4),
      after: streaks(2, 0, 0),
    },
    {
      name: "an implementation answer resets testOnlyStreak",
      before: streaks(2, 0, 0),
      observation: observe({}),
      after: streaks(0, 0, 0),
    },
    {
      name: "a done signal grows doneSignalStreak",
      before: streaks(0, 1, 0),
      observation: observe({ doneSignal: true }),
      after: streaks(0, 2, 0),
    },
    {
      name: "a done signal in an iteration that completed a task resets doneSignalStreak (the agent is working)",
      before: streaks(0, 1, 0),
      observation: observe({ doneSignal: true }, 1, 1),
      after: streaks(0, 0, 0),
    },
    {
      name: "a done signal with files changed but no task completed still grows doneSignalStreak",
      before: streaks(0, 1, 0),
      observation: observe({ doneSignal: true }, 0, 3),
      after: streaks(0, 2, 0),
    },
    {
      name: "EXIT_SIGNAL: true written in the block grows exitSignalStreak, whatever else",
      before: streaks(0, 0, 0, 1),
      observation: observe({ statusBlock: block(true) }, 1, 1),
      after: streaks(0, 0, 0, 2),
    },
    {
      name: "EXIT_SIGNAL: false, or no block, resets exitSignalStreak",
      before: streaks(0, 0, 0, 3),
      observation: observe({ statusBlock: block(false) }),
      after: streaks(0, 0, 0, 0),
    },
    {
      name: "an answer without a status block resets exitSignalStreak",
      before: streaks(0, 0, 0, 3),
      observation: observe({ doneSignal: true }),
      after: streaks(0, 1, 0, 0),
    },
    {
      name: "an answer without a done signal resets doneSignalStreak",
      before: streaks(0, 1, 0),
      observation: observe({}, 1, 1),
      after: streaks(0, 0, 0),
    },
    {
      name: "a question-only iteration grows questionOnlyStreak",
      before: streaks(0, 0, 2),
      observation: observe({ askingQuestions: true }),
      after: streaks(0, 0, 3),
    },
    {
      name: "a question with file changes is not question-only: questionOnlyStreak resets",
      before: streaks(0, 0, 2),
      observation: observe({ askingQuestions: true }, 0, 1),
      after: streaks(0, 0, 0),
    },
    {
      name: "a failed run without an answer resets every streak",
      before: streaks(2, 1, 2, 2),
      observation: observe(null),
      after: streaks(0, 0, 0),
    },
    {
      name: "the streaks are independent: one answer can grow all three",
      before: streaks(1, 1, 1),
      observation: observe({ testOnly: true, doneSignal: true, askingQuestions: true }),
      after: streaks(2, 2, 2),
    },
  ];

  it.each(cases)("$name", ({ before, observation, after }) => {
    const frozen = Object.freeze({ ...before });
    expect(updateStopCounters(frozen, observation)).toEqual(after);
    expect(frozen).toEqual(before);
  });

  it("counters are plain data that survive JSON (kept in loop_state.json)", () => {
    const counters = updateStopCounters(streaks(1, 0, 2), observe({ testOnly: true }));
    expect(JSON.parse(JSON.stringify(counters))).toEqual(counters);
  });
});

describe("stop counters feed the ralph_loop.sh detectors end to end", () => {
  const config = resolveConfig({});
  const base = {
    config,
    tasks: [{ id: "TASK-001", done: false }],
    iterations: 1,
    completionIndicators: 0,
    startedAt: 0,
    now: 60_000,
  };
  const testingAnswer = `Ran the whole suite again; all 42 tests pass.

---RALPH_STATUS---
STATUS: IN_PROGRESS
TASKS_COMPLETED_THIS_LOOP: 0
FILES_MODIFIED: 0
TESTS_STATUS: PASSING
WORK_TYPE: TESTING
EXIT_SIGNAL: false
RECOMMENDATION: Run the tests again
---END_RALPH_STATUS---
`;

  it("test saturation: the third test-only answer in a row stops the loop (default 3)", () => {
    let counters = initialStopCounters();
    const reasons: (string | null)[] = [];
    for (let iteration = 1; iteration <= 3; iteration += 1) {
      const signals = analyzeResponse(testingAnswer);
      counters = updateStopCounters(counters, { signals, tasksCompleted: 0, filesChanged: 0 });
      reasons.push(shouldExit({ ...base, iterations: iteration, signals, counters }).reason);
    }
    expect(counters.testOnlyStreak).toBe(3);
    expect(reasons).toEqual([null, null, "test_saturation"]);
  });

  it("needs_input: three question-only answers in a row stop the loop (default 3)", () => {
    const asking = analyzeResponse(
      "Should I return a JWT from the login endpoint, or set a session cookie?",
    );
    expect(asking.askingQuestions).toBe(true);
    let counters = initialStopCounters();
    const reasons: (string | null)[] = [];
    for (let iteration = 1; iteration <= 3; iteration += 1) {
      counters = updateStopCounters(counters, {
        signals: asking,
        tasksCompleted: 0,
        filesChanged: 0,
      });
      reasons.push(
        shouldExit({ ...base, iterations: iteration, signals: asking, counters }).reason,
      );
    }
    expect(reasons).toEqual([null, null, "needs_input"]);
  });
});

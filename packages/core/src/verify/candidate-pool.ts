import { SCORE_SCALE } from "./coverage.js";
import type { CompletedTaskInput, TaskCandidate } from "./requirement-match.js";

/**
 * The `{ task, score }` candidates of one matching call. A task that scores the same against
 * several requirements in a row gets one frozen candidate object, shared by their candidate
 * lists, instead of one object per pair: with thousands of tasks sharing common words with
 * every requirement, those objects were most of the memory a call took.
 */
export class CandidatePool<Task extends CompletedTaskInput> {
  readonly #tasks: readonly Task[];
  /** Per task: the scaled score of its last candidate (-1: none yet). */
  readonly #lastScaled: Int32Array;
  readonly #last: (TaskCandidate<Task> | undefined)[];

  /** @param tasks - the tasks, by position. */
  constructor(tasks: readonly Task[]) {
    this.#tasks = tasks;
    this.#lastScaled = new Int32Array(tasks.length).fill(-1);
    this.#last = new Array<TaskCandidate<Task> | undefined>(tasks.length).fill(undefined);
  }

  /**
   * The candidates of one requirement, in rank order.
   *
   * @param ranked - indexes into `positions` and `scaled`, best first (`rankByScore`).
   * @param positions - task positions.
   * @param scaled - their scores in millionths (> 0).
   * @returns for each entry of `ranked`, a frozen `{ task, score }` with
   * `score = scaled / 1e6`, reused from the task's previous candidate when the score is the same.
   */
  candidatesOf(
    ranked: Int32Array,
    positions: Int32Array,
    scaled: Int32Array,
  ): TaskCandidate<Task>[] {
    const tasks = this.#tasks;
    const lastScaled = this.#lastScaled;
    const last = this.#last;
    const count = ranked.length;
    const candidates = new Array<TaskCandidate<Task>>(count);
    for (let rank = 0; rank < count; rank += 1) {
      const entry = ranked[rank] ?? 0;
      const position = positions[entry] ?? 0;
      const score = scaled[entry] ?? 0;
      let candidate = last[position];
      if (candidate === undefined || lastScaled[position] !== score) {
        candidate = Object.freeze({ task: tasks[position] as Task, score: score / SCORE_SCALE });
        last[position] = candidate;
        lastScaled[position] = score;
      }
      candidates[rank] = candidate;
    }
    return candidates;
  }
}

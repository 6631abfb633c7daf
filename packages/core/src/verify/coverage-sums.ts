import { scaledScore } from "./coverage.js";
import type { WordMatch } from "./word-index.js";

/**
 * Scratch space that scores one requirement at a time against the tasks of a {@link WordIndex},
 * touching only the tasks that say a word matching one of the requirement's words. One
 * instance serves every requirement of a matching call; its typed arrays are reused and
 * nothing is kept per task-requirement pair.
 *
 * Exactly {@link coverageScore}: a task's coverage of a requirement word is the best
 * similarity among its words that match it (the maximum `coverageVector` takes, as the index
 * lists every task word scoring above 0), and the values are added in requirement-word order
 * from 0. Words a task does not match add 0 in `coverageScore`; leaving them out gives the
 * same sum, since adding 0 to a non-negative number changes nothing.
 *
 * After {@link CoverageSums.fill}, `positions[0 … scoredCount)` are the tasks scoring above 0,
 * in ascending position, and `scaled[…]` their scores in millionths.
 */
export class CoverageSums {
  /** Tasks scoring above 0 after the last fill, in ascending position. */
  readonly positions: Int32Array;
  /** Their scores in millionths (see {@link scaledScore}), aligned with `positions`. */
  readonly scaled: Int32Array;
  /** How many entries of `positions` and `scaled` the last fill wrote. */
  scoredCount = 0;

  readonly #taskCount: number;
  /** Per task: the running sum of its coverage values in the current fill. */
  readonly #sums: Float64Array;
  /** Per task: the fill that last touched it (its sum is stale otherwise). */
  readonly #filled: Int32Array;
  #fillCount = 0;
  /** The tasks the current fill touched, in touch order. */
  readonly #touched: Int32Array;
  /** Per task: its best similarity to the current word, when several task words match it. */
  readonly #wordBest: Float64Array;
  /** Per task: the word (a running count) `#wordBest` is for. */
  readonly #wordSeen: Int32Array;
  #wordCount = 0;
  /** The tasks matching the current word, when several task words match it. */
  readonly #wordTasks: Int32Array;

  /** @param taskCount - how many tasks the index holds. */
  constructor(taskCount: number) {
    this.#taskCount = taskCount;
    this.positions = new Int32Array(taskCount);
    this.scaled = new Int32Array(taskCount);
    this.#sums = new Float64Array(taskCount);
    this.#filled = new Int32Array(taskCount);
    this.#touched = new Int32Array(taskCount);
    this.#wordBest = new Float64Array(taskCount);
    this.#wordSeen = new Int32Array(taskCount);
    this.#wordTasks = new Int32Array(taskCount);
  }

  /**
   * Scores the tasks against one requirement.
   *
   * @param wordMatches - for each requirement word, in order, the task words matching it
   * ({@link WordIndex.matchesOf}); there must be at least one requirement word.
   */
  fill(wordMatches: readonly (readonly WordMatch[])[]): void {
    this.#fillCount += 1;
    let touchedCount = 0;
    for (const matches of wordMatches) {
      const [only] = matches;
      if (only === undefined) continue;
      touchedCount =
        matches.length === 1
          ? this.#add(only.tasks, only.similarity, touchedCount)
          : this.#addBest(matches, touchedCount);
    }
    this.#score(touchedCount, wordMatches.length);
  }

  /** Adds `similarity` to the sum of each of `tasks`; returns the new touched count. */
  #add(tasks: readonly number[], similarity: number, touchedCount: number): number {
    let count = touchedCount;
    for (const task of tasks) count = this.#addTo(task, similarity, count);
    return count;
  }

  /** Adds `similarity` to one task's sum, touching it first; returns the new touched count. */
  #addTo(task: number, similarity: number, touchedCount: number): number {
    if (this.#filled[task] === this.#fillCount) {
      this.#sums[task] = (this.#sums[task] ?? 0) + similarity;
      return touchedCount;
    }
    this.#filled[task] = this.#fillCount;
    this.#sums[task] = 0 + similarity;
    this.#touched[touchedCount] = task;
    return touchedCount + 1;
  }

  /**
   * Adds each task's best similarity among several task words matching one requirement word
   * (the word itself and typos of it); returns the new touched count.
   */
  #addBest(matches: readonly WordMatch[], touchedCount: number): number {
    this.#wordCount += 1;
    const word = this.#wordCount;
    const seen = this.#wordSeen;
    const best = this.#wordBest;
    const wordTasks = this.#wordTasks;
    let wordTaskCount = 0;
    for (const { tasks, similarity } of matches) {
      for (const task of tasks) {
        if (seen[task] !== word) {
          seen[task] = word;
          best[task] = similarity;
          wordTasks[wordTaskCount] = task;
          wordTaskCount += 1;
        } else if ((best[task] ?? 0) < similarity) {
          best[task] = similarity;
        }
      }
    }
    let count = touchedCount;
    for (const task of wordTasks.subarray(0, wordTaskCount)) {
      count = this.#addTo(task, best[task] ?? 0, count);
    }
    return count;
  }

  /** Writes `positions` and `scaled` for the touched tasks, in ascending position. */
  #score(touchedCount: number, wordCount: number): void {
    const fill = this.#fillCount;
    const filled = this.#filled;
    const sums = this.#sums;
    const { positions, scaled } = this;
    // Ascending order: sort the few touched tasks, or sweep all tasks when many were touched.
    const sweep = touchedCount * 8 >= this.#taskCount;
    const tasks = sweep ? null : this.#touched.subarray(0, touchedCount).sort();
    const end = tasks === null ? this.#taskCount : touchedCount;
    let scoredCount = 0;
    for (let index = 0; index < end; index += 1) {
      const task = tasks === null ? index : (tasks[index] ?? 0);
      if (filled[task] !== fill) continue;
      const score = scaledScore(sums[task] ?? 0, wordCount);
      if (score <= 0) continue;
      positions[scoredCount] = task;
      scaled[scoredCount] = score;
      scoredCount += 1;
    }
    this.scoredCount = scoredCount;
  }
}

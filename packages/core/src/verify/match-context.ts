import { CandidatePool } from "./candidate-pool.js";
import type { MatchingWords } from "./content-words.js";
import { CoverageSums } from "./coverage-sums.js";
import { rememberMatchingWords } from "./remembered-words.js";
import type { CompletedTaskInput } from "./requirement-match.js";
import type { MatchSettings } from "./verification-options.js";
import { indexWords, type WordIndex } from "./word-index.js";

/** What one matching call shares across its requirements: the tasks read once, and scratch. */
export interface MatchContext<Task extends CompletedTaskInput> {
  /** The call's threshold and combination size. */
  readonly settings: MatchSettings;
  /** Each completed task's words, by position (the tasks with `done: false` left out). */
  readonly taskWords: readonly MatchingWords[];
  /** The words of any text, each text read once. */
  readonly wordsOf: (text: string) => MatchingWords;
  /** The tasks by content word. */
  readonly contentIndex: WordIndex;
  /** The tasks by any word, for requirements without a content word (built when needed). */
  readonly allIndex: () => WordIndex;
  /** Scores one requirement at a time. */
  readonly sums: CoverageSums;
  /** Scratch for `rankByScore`: one ranking at a time. */
  readonly ranking: Int32Array;
  /** The candidate objects, shared where a task keeps its score. */
  readonly pool: CandidatePool<Task>;
}

/**
 * Reads the completed tasks once for a matching call: their words, an index of them by
 * content word (and, when a requirement needs it, by any word), and the scratch space.
 *
 * @param completedTasks - the tasks as given; those with `done: false` are left out.
 * @param settings - the call's checked options.
 */
export function createMatchContext<Task extends CompletedTaskInput>(
  completedTasks: readonly Task[],
  settings: MatchSettings,
): MatchContext<Task> {
  const tasks = completedTasks.filter((task) => task.done !== false);
  const wordsOf = rememberMatchingWords();
  const taskWords = tasks.map((task) => wordsOf(task.title));
  let allIndex: WordIndex | undefined;
  return {
    settings,
    taskWords,
    wordsOf,
    contentIndex: indexWords(taskWords.map((words) => words.content)),
    allIndex: () => {
      allIndex ??= indexWords(taskWords.map((words) => words.all));
      return allIndex;
    },
    sums: new CoverageSums(tasks.length),
    ranking: new Int32Array(tasks.length),
    pool: new CandidatePool(tasks),
  };
}

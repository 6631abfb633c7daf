/**
 * Where the loop reads and writes its plan: a file (`filePlan` in `@loop/fs`), memory
 * (`memoryPlan` in `@loop/memory`), or anything else. The loop reads the plan afresh every
 * iteration, so a user or the agent may edit it while the loop runs.
 */
export interface PlanSource {
  /** The plan's path or name, for messages and `loop_state.json`'s `plan_path`. */
  readonly path: string;
  /** Reads the whole plan text. Throws when the plan does not exist or cannot be read. */
  read(): Promise<string>;
  /** Replaces the whole plan text (atomically, where the backend allows). */
  write(text: string): Promise<void>;
}

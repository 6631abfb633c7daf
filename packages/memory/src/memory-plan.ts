import type { PlanSource } from "@loop/core";

/** Options of {@link memoryPlan}. */
export interface MemoryPlanOptions {
  /** The plan's name in messages and in `loop_state.json`'s `plan_path`. Default: `memory:plan.md`. */
  readonly path?: string | undefined;
}

/** A `PlanSource` in memory, as {@link memoryPlan} returns it. */
export interface MemoryPlan extends PlanSource {
  /** The plan's current text: the initial text, or the last one written. */
  readonly text: string;
  /** Every text passed to `write`, oldest first (the initial text is not among them). */
  readonly writes: readonly string[];
}

/**
 * A plan kept in memory: `read` returns the current text, `write` replaces it and records it
 * in `writes`, so a test can check what the code under test did to the plan.
 *
 * @example
 * ```ts
 * const plan = memoryPlan("- [ ] TASK-001 Write the parser\n");
 * await plan.write("- [x] TASK-001 Write the parser\n");
 * plan.text;   // "- [x] TASK-001 Write the parser\n"
 * plan.writes; // ["- [x] TASK-001 Write the parser\n"]
 * ```
 *
 * @param text - the initial plan text (markdown).
 * @param options - the plan's path.
 * @throws {TypeError} when `text` or `path` is not a string.
 */
export function memoryPlan(text: string, options?: MemoryPlanOptions | null): MemoryPlan {
  expectText(text, "memoryPlan: the plan");
  const path = options?.path ?? "memory:plan.md";
  expectText(path, "Option `path`");
  let current = text;
  const writes: string[] = [];
  return {
    path,
    get text() {
      return current;
    },
    writes,
    async read() {
      return current;
    },
    async write(next: string) {
      expectText(next, "memoryPlan: a written plan");
      current = next;
      writes.push(next);
    },
  };
}

function expectText(value: unknown, what: string): asserts value is string {
  if (typeof value !== "string") {
    throw new TypeError(
      `${what} must be text (a string), got ${value === null ? "null" : typeof value}`,
    );
  }
}

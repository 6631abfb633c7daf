import type { DecisionEvent, DecisionEventName, DecisionEventOf, Logger } from "@loop/core";

/** Options of {@link MemoryLogger}. */
export interface MemoryLoggerOptions {
  /**
   * The most events kept. When a new event would exceed it, the oldest is dropped and counted
   * in {@link MemoryLogger.dropped}. Default: no limit.
   */
  readonly capacity?: number | undefined;
}

/**
 * A `Logger` that keeps the decision events in memory, in the order they were logged, for
 * tests and for embedders that show them in their own UI. Events are kept as given (not
 * copied), and `log` never throws.
 *
 * @example
 * ```ts
 * const logger = new MemoryLogger();
 * // … run the code under test with `logger` …
 * expect(logger.events.map((event) => event.event)).toEqual(["iteration_start", "iteration_end"]);
 * expect(logger.last("iteration_end")?.payload).toMatchObject({ iteration: 1 });
 * ```
 */
export class MemoryLogger implements Logger {
  /** The most events kept, or `Infinity`. */
  readonly capacity: number;

  #events: DecisionEvent[] = [];
  #dropped = 0;

  /**
   * @param options - the optional capacity.
   * @throws {RangeError} when `capacity` is not a positive integer.
   */
  constructor(options?: MemoryLoggerOptions | null) {
    const capacity = options?.capacity ?? Number.POSITIVE_INFINITY;
    if (
      capacity !== Number.POSITIVE_INFINITY &&
      !(Number.isSafeInteger(capacity) && capacity > 0)
    ) {
      throw new RangeError(`Option \`capacity\` must be a positive integer, got ${capacity}`);
    }
    this.capacity = capacity;
  }

  /** The kept events, oldest first. */
  get events(): readonly DecisionEvent[] {
    return this.#events;
  }

  /** How many events were dropped, oldest first, to stay within the capacity (since the last {@link MemoryLogger.clear}). */
  get dropped(): number {
    return this.#dropped;
  }

  /** Keeps `event`, dropping the oldest kept event when the capacity is reached. */
  log(event: DecisionEvent): void {
    if (this.#events.length >= this.capacity) {
      this.#events.shift();
      this.#dropped += 1;
    }
    this.#events.push(event);
  }

  /** Resolves at once: every logged event is already kept. */
  async flush(): Promise<void> {}

  /** Forgets every kept event and resets {@link MemoryLogger.dropped} to zero. */
  clear(): void {
    this.#events = [];
    this.#dropped = 0;
  }

  /**
   * The kept events named `name`, oldest first, typed by that name.
   *
   * @param name - the event name, as in `decision.log` (`iteration_end`, `loop_exit`, `error`, …).
   */
  ofType<Name extends DecisionEventName>(name: Name): DecisionEventOf<Name>[] {
    return this.#events.filter((event) => event.event === name) as DecisionEventOf<Name>[];
  }

  /** The latest kept event, or `undefined` when there is none. */
  last(): DecisionEvent | undefined;
  /**
   * The latest kept event named `name`, typed by that name, or `undefined` when there is none.
   *
   * @param name - the event name to look for.
   */
  last<Name extends DecisionEventName>(name: Name): DecisionEventOf<Name> | undefined;
  last(name?: DecisionEventName): DecisionEvent | undefined {
    return this.#events.findLast((event) => name === undefined || event.event === name);
  }
}

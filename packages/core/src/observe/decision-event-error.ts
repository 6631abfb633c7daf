import { DiagnosticsError, type DiagnosticsErrorOptions } from "../errors/diagnostics-error.js";
import { LoopError } from "../errors/loop-error.js";

const marker = "loop.error.DecisionEventError";
const symbol = Symbol.for(marker);

/**
 * A decision event built with an invalid payload, terminal id or timestamp: a programming
 * error in the code that logs it. Lists every problem with its key path
 * (`payload.iteration: expected an integer ≥ 1, got 0`). Code: `DECISION_EVENT_ERROR`.
 */
export class DecisionEventError extends DiagnosticsError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** The event's name, as given. */
  readonly event: string;

  /** @param options - the problems, the event's name and the cause. */
  constructor(options: DiagnosticsErrorOptions & { readonly event: string }) {
    super(
      options,
      `Invalid decision event "${options.event}"`,
      "DecisionEventError",
      "DECISION_EVENT_ERROR",
    );
    this.event = options.event;
  }

  /** Whether `error` is a {@link DecisionEventError}, from any copy of the package. */
  static override isInstance(error: unknown): error is DecisionEventError {
    return LoopError.hasMarker(error, marker);
  }
}

import { type LockHolder, StateStoreError } from "@loop/core";

const marker = "loop.error.LeaseLostError";
const symbol = Symbol.for(marker);

/** Options of the {@link LeaseLostError} constructor. */
export interface LeaseLostErrorOptions {
  /** The terminal (or plan, or project) whose lease was lost. */
  readonly terminalId: string;
  /** This process, the holder that lost the lease. */
  readonly holder: LockHolder;
  /** Who holds the lease now, when known (`null`: nobody, or it could not be read). */
  readonly heldBy: LockHolder | null;
  /** What was being done when the loss was found: `renew the lease`, `write "loop_state"`. */
  readonly action: string;
}

/**
 * This process held a terminal's lease and lost it: the lease expired (the holder could not
 * renew it in time, for example while the database was unreachable) and another loop took it
 * over, or it was deleted by hand. The holder's later writes to that terminal are refused
 * (fencing), so two loops never both write one terminal's state.
 * Code: `STATE_LEASE_LOST`; a loop stops with `state_error` at its next state write.
 */
export class LeaseLostError extends StateStoreError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** Stable code of this error: `STATE_LEASE_LOST`. */
  override readonly code: string = "STATE_LEASE_LOST";
  /** The terminal whose lease was lost. */
  readonly terminalId: string;
  /** This process, the holder that lost it. */
  readonly holder: LockHolder;
  /** Who holds the lease now, when known. */
  readonly heldBy: LockHolder | null;

  /** @param options - the terminal, the two holders and what was being done. */
  constructor(options: LeaseLostErrorOptions) {
    const now =
      options.heldBy === null
        ? "nobody holds it now"
        : `it is held by pid ${options.heldBy.pid} on ${options.heldBy.host} since ${options.heldBy.startedAt}`;
    super({
      message: `Could not ${options.action}: this process (pid ${options.holder.pid} on ${options.holder.host}) lost its lease on terminal "${options.terminalId}" (${now}). The write was refused so that two loops never write one terminal; start the loop again once the other has stopped.`,
    });
    this.name = "LeaseLostError";
    this.terminalId = options.terminalId;
    this.holder = options.holder;
    this.heldBy = options.heldBy;
  }

  /** Whether `error` is a {@link LeaseLostError}, from any copy of the package. */
  static override isInstance(error: unknown): error is LeaseLostError {
    return StateStoreError.hasMarker(error, marker);
  }
}

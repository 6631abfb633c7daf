import { LoopError, type LoopErrorOptions } from "../errors/loop-error.js";
import type { LockHolder } from "./state-store.js";

const storeMarker = "loop.error.StateStoreError";
const storeSymbol = Symbol.for(storeMarker);

/**
 * A state store could not read or write (disk full, permission denied, an unsafe terminal id,
 * a corrupt backend). State is not best-effort: this error stops the loop. Code: `STATE_STORE_ERROR`.
 */
export class StateStoreError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [storeSymbol] = true;

  /** @param options - what failed, and the underlying error. */
  constructor(options: LoopErrorOptions) {
    super(options, "StateStoreError", "STATE_STORE_ERROR");
  }

  /** Whether `error` is a {@link StateStoreError}, from any copy of the package. */
  static override isInstance(error: unknown): error is StateStoreError {
    return LoopError.hasMarker(error, storeMarker);
  }
}

const lockedMarker = "loop.error.StateLockedError";
const lockedSymbol = Symbol.for(lockedMarker);

/**
 * Another live loop holds this terminal's state. Code: `STATE_LOCKED`. Its message names the
 * holder (pid, host, start time) so the user can find it.
 */
export class StateLockedError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [lockedSymbol] = true;

  /** The terminal whose state is locked. */
  readonly terminalId: string;
  /** The live holder of the lock. */
  readonly holder: LockHolder;

  /** @param options - the terminal, the holder and an optional cause. */
  constructor(options: { terminalId: string; holder: LockHolder; cause?: unknown }) {
    super(
      {
        message: `The state of terminal "${options.terminalId}" is locked by another loop (pid ${options.holder.pid} on ${options.holder.host}, since ${options.holder.startedAt}). Stop that loop, or run this one with another terminal id.`,
        cause: options.cause,
      },
      "StateLockedError",
      "STATE_LOCKED",
    );
    this.terminalId = options.terminalId;
    this.holder = options.holder;
  }

  /** Whether `error` is a {@link StateLockedError}, from any copy of the package. */
  static override isInstance(error: unknown): error is StateLockedError {
    return LoopError.hasMarker(error, lockedMarker);
  }
}

import type { Clock } from "./clock.js";
import type { SharedLimits, SharedLimitsCaller, SharedLimitsUsage } from "./shared-limits.js";
import { checkedClaim, checkedUsage } from "./shared-limits-answers.js";
import { SharedLimitsError } from "./shared-limits-error.js";

/**
 * How long the engine waits before each retry when the shared limits fail (throw, or answer
 * what their contract does not allow): 1 s, 2 s, 5 s, 10 s, 30 s, then a minute three times —
 * nine tries over 3 minutes 48 seconds, on the loop's clock. When the last fails the loop stops
 * with `limits_error`; it never makes a call it could not claim.
 */
export const SHARED_LIMITS_RETRY_DELAYS_MS: readonly number[] = Object.freeze([
  1_000, 2_000, 5_000, 10_000, 30_000, 60_000, 60_000, 60_000,
]);

/** The shortest wait for a window to reset: a refusal with less (or a negative wait) waits this. */
const SHORTEST_WAIT_MS = 1_000;
/** The longest: a window is an hour, so a longer wait is claimed again after an hour. */
const LONGEST_WAIT_MS = 60 * 60 * 1000;

/** What the gate answers a loop that wants to make a call. */
export type SharedCallAnswer =
  | { readonly kind: "granted"; readonly usage: SharedLimitsUsage }
  | { readonly kind: "wait"; readonly usage: SharedLimitsUsage; readonly waitMs: number }
  | { readonly kind: "budget"; readonly usage: SharedLimitsUsage }
  | { readonly kind: "aborted" };

/** What the gate needs of the loop it serves. */
export interface SharedLimitsGateContext {
  readonly clock: Clock;
  /** Who asks (the terminal and its run id, as it is now). */
  caller(): SharedLimitsCaller;
  /** Told once when the shared limits start failing (again, after they recovered). */
  onOutage(error: SharedLimitsError): void;
}

/** A failure as a {@link SharedLimitsError}, kept as the cause when it is another error. */
function asSharedLimitsError(error: unknown, name: string, what: string): SharedLimitsError {
  if (SharedLimitsError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new SharedLimitsError({
    message: `The shared limits "${name}" could not ${what}: ${message}`,
    cause: error,
  });
}

/**
 * The engine's side of a {@link SharedLimits}: claims a call before each agent call (retrying
 * with backoff through failures, up to {@link SHARED_LIMITS_RETRY_DELAYS_MS}), books each call's
 * cost (kept until it is recorded: a cost that could not be recorded is recorded before the next
 * claim), and gives back a call never made. One per loop run; a parallel run's workers share
 * their loop's.
 */
export class SharedLimitsGate {
  /** Cost booked and not yet recorded. */
  #pendingCost = 0;
  /** Background cost recording, one at a time. */
  #recording: Promise<void> = Promise.resolve();
  /** Whether the implementation is failing now (an outage was reported). */
  #failing = false;
  /** The counts of the last answer, for the loop's exit record. */
  lastUsage: SharedLimitsUsage | null = null;

  constructor(
    private readonly limits: SharedLimits,
    private readonly context: SharedLimitsGateContext,
  ) {}

  /**
   * Claims one call, after recording any cost still pending. Failures are retried with backoff
   * on the clock (the outage reported once); `aborted` when `signal` fires meanwhile.
   * `onRetry` is told before each wait for a retry (the claim will take a while).
   *
   * @throws {SharedLimitsError} once the last retry failed.
   */
  async claim(signal?: AbortSignal, onRetry?: () => void): Promise<SharedCallAnswer> {
    await this.#recording;
    const name = this.limits.name;
    for (let attempt = 0; ; attempt += 1) {
      if (signal?.aborted) return { kind: "aborted" };
      try {
        await this.#recordPending(signal);
        const claim = checkedClaim(
          await this.limits.claimCall(this.context.caller(), { signal }),
          name,
        );
        this.#failing = false;
        this.lastUsage = claim.usage;
        if (claim.granted) return { kind: "granted", usage: claim.usage };
        if (claim.refusal === "budget") return { kind: "budget", usage: claim.usage };
        const waitMs = Math.min(Math.max(claim.waitMs, SHORTEST_WAIT_MS), LONGEST_WAIT_MS);
        return { kind: "wait", usage: claim.usage, waitMs };
      } catch (error) {
        if (signal?.aborted) return { kind: "aborted" };
        const failure = asSharedLimitsError(error, name, "claim a call");
        const delay = SHARED_LIMITS_RETRY_DELAYS_MS[attempt];
        if (delay === undefined) {
          const tries = SHARED_LIMITS_RETRY_DELAYS_MS.length + 1;
          const seconds = SHARED_LIMITS_RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0) / 1000;
          throw new SharedLimitsError({
            message: `The shared limits "${name}" failed ${tries} times over ${seconds} s (the last: ${failure.message}). The loop stops rather than make a call it cannot count against them.`,
            cause: failure,
          });
        }
        if (!this.#failing) {
          this.#failing = true;
          this.context.onOutage(failure);
        }
        onRetry?.();
        await this.context.clock.sleep(delay, signal);
      }
    }
  }

  /** Whether the shared limits hold a budget, as their last answer said (`false` before one). */
  get budgeted(): boolean {
    return this.lastUsage !== null && this.lastUsage.maxCostUsd !== null;
  }

  /** Books a call's cost: recorded now in the background, or before the next claim. */
  addCost(costUsd: number | undefined): void {
    if (costUsd === undefined || !(costUsd > 0) || !Number.isFinite(costUsd)) return;
    this.#pendingCost += costUsd;
    this.#recording = this.#recording.then(() => this.#recordPending().catch(() => undefined));
  }

  /**
   * Gives back a granted call whose agent never ran, when the implementation can. Best-effort: a
   * failure leaves the call counted, which is safe.
   */
  async release(usage: SharedLimitsUsage): Promise<void> {
    const release = this.limits.releaseCall;
    if (release === undefined) return;
    await release
      .call(this.limits, { ...this.context.caller(), windowStart: usage.windowStart })
      .catch(() => undefined);
  }

  /**
   * Records what cost is still pending, once, at the loop's end.
   *
   * @returns the amount that could not be recorded and why; `null` when all is recorded.
   */
  async settle(): Promise<{ readonly costUsd: number; readonly error: SharedLimitsError } | null> {
    await this.#recording;
    const amount = this.#pendingCost;
    try {
      await this.#recordPending();
      return null;
    } catch (error) {
      return {
        costUsd: amount,
        error: asSharedLimitsError(error, this.limits.name, "record a cost"),
      };
    }
  }

  /** Records the pending cost; on a failure it stays pending and the failure is thrown. */
  async #recordPending(signal?: AbortSignal): Promise<void> {
    const amount = this.#pendingCost;
    if (amount === 0) return;
    this.#pendingCost = 0;
    let usage: unknown;
    try {
      usage = await this.limits.recordCost(
        { ...this.context.caller(), costUsd: amount },
        { signal },
      );
    } catch (error) {
      this.#pendingCost += amount;
      throw error;
    }
    // Recorded: an answer that breaks the contract is a failure, but the cost is not recorded twice.
    this.lastUsage = checkedUsage(usage, this.limits.name, "recordCost");
  }
}

import type { DecisionEvent } from "@loop/core";

/** One event waiting to be written, numbered in the order it was logged. */
export interface BufferedEvent {
  /** 1, 2, 3… in logging order. */
  readonly sequence: number;
  /** The event. */
  readonly event: DecisionEvent;
}

/**
 * The events a logger has not written yet, oldest first, at most `limit` of them: when full,
 * the oldest is dropped (and counted) to make room. A batch taken out for writing is put back
 * at the front when the write fails.
 */
export class EventBuffer {
  private waiting: BufferedEvent[] = [];
  private inFlight: BufferedEvent[] = [];
  private lastSequence = 0;
  private droppedCount = 0;

  /** @param limit - the most events kept waiting. */
  constructor(private readonly limit: number) {}

  /** Adds an event, dropping the oldest waiting one when full. */
  push(event: DecisionEvent): void {
    this.lastSequence += 1;
    this.waiting.push({ sequence: this.lastSequence, event });
    this.trim();
  }

  /** Takes up to `count` of the oldest waiting events out for writing. */
  take(count: number): readonly BufferedEvent[] {
    this.inFlight = this.waiting.splice(0, count);
    return this.inFlight;
  }

  /** The batch taken out was written. */
  written(): void {
    this.inFlight = [];
  }

  /** The batch taken out could not be written: back to the front (then trimmed to the limit). */
  putBack(): void {
    this.waiting = [...this.inFlight, ...this.waiting];
    this.inFlight = [];
    this.trim();
  }

  /** The batch taken out was refused as invalid: dropped, and counted. */
  discard(): void {
    this.droppedCount += this.inFlight.length;
    this.inFlight = [];
  }

  /** Events waiting or being written. */
  get size(): number {
    return this.waiting.length + this.inFlight.length;
  }

  /** Events dropped so far. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** The number of the newest event logged (0 before the first). */
  get newestSequence(): number {
    return this.lastSequence;
  }

  /** Whether any event numbered `sequence` or lower still waits or is being written. */
  holdsUpTo(sequence: number): boolean {
    const oldest = this.inFlight[0] ?? this.waiting[0];
    return oldest !== undefined && oldest.sequence <= sequence;
  }

  private trim(): void {
    const excess = this.waiting.length - this.limit;
    if (excess <= 0) return;
    this.waiting.splice(0, excess);
    this.droppedCount += excess;
  }
}

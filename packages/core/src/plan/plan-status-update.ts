/**
 * New values for a plan's RALPH_STATUS section. Each property given is written; the
 * others are left as they are.
 */
export interface PlanStatusUpdate {
  /** Written as `EXIT_SIGNAL: true` / `false`. */
  readonly exitSignal?: boolean | undefined;
  /** Written as `completion_indicators: 3`; a whole number, 0 or more. */
  readonly completionIndicators?: number | undefined;
  /** Written as `current_task: TASK-005`; `null` writes `none`. One line. */
  readonly currentTask?: string | null | undefined;
  /**
   * Any other entries, key as it should be spelt when added → value (one line each).
   * Keys are matched against existing entries like the known keys (case- and
   * spacing-tolerantly); a known key here must hold a valid value and must not also be
   * given as a typed property.
   */
  readonly fields?: Readonly<Record<string, string>> | undefined;
}

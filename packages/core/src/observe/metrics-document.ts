import { parseJsonText } from "../state/json-text.js";
import { schemaDiagnostics } from "../state/schema-diagnostics.js";
import { serializeDocument } from "../state/state-document.js";
import type { StateStore } from "../state/state-store.js";
import { StateValidationError } from "../state/state-validation-error.js";
import { requireSafeTerminalId, storeCall, storedText } from "../state/store-call.js";
import { type LoopMetrics, LoopMetricsSchema } from "./loop-metrics.js";

/** The store key of `loop_metrics.json`. */
const LOOP_METRICS_KEY = "loop_metrics";

/** Options of {@link updateMetrics}. */
export interface UpdateMetricsOptions {
  /**
   * Called with the failure when the metrics could not be written: a `StateValidationError`
   * for invalid metrics, a `StateStoreError` for a store failure. If it throws, that is ignored.
   */
  readonly onError: (error: unknown) => void;
}

/** Options of {@link readMetrics}. */
export interface ReadMetricsOptions {
  /**
   * Called with the reason when the metrics could not be read (a `StateStoreError`, or a
   * `StateValidationError` for a corrupt document). If it throws, that is ignored.
   */
  readonly onError?: ((error: unknown) => void) | undefined;
}

/** Parses and checks a stored metrics document. */
function metricsFromText(text: string, terminalId: string): LoopMetrics {
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    throw new StateValidationError({
      document: LOOP_METRICS_KEY,
      terminalId,
      issues: [parsed.problem],
    });
  }
  const result = LoopMetricsSchema.safeParse(parsed.value);
  if (result.success) return result.data;
  throw new StateValidationError({
    document: LOOP_METRICS_KEY,
    terminalId,
    issues: schemaDiagnostics(result.error.issues, parsed.value),
  });
}

function report(onError: ((error: unknown) => void) | undefined, error: unknown): void {
  try {
    onError?.(error);
  } catch {
    // Metrics are best-effort, and so is reporting about them.
  }
}

/**
 * Writes a terminal's `loop_metrics` document through the store — best-effort, as the seed's
 * `update_metrics`: the metrics are checked against {@link LoopMetricsSchema} (invalid ones are
 * not written), and any failure goes to `onError`. The returned promise never rejects. The
 * document is derived from `loop_state`, so it is written with `durable: false` (a file store
 * does not `fsync` it).
 *
 * @param store - the state store.
 * @param terminalId - a safe terminal id.
 * @param metrics - the whole document.
 * @param options - where failures go.
 * @example
 * ```ts
 * await updateMetrics(store, terminalId,
 *   { iterations: 3, tasks_completed: 2, tasks_failed: 0, last_update: now },
 *   { onError: (error) => console.warn(String(error)) });
 * ```
 */
export async function updateMetrics(
  store: StateStore,
  terminalId: string,
  metrics: LoopMetrics,
  options: UpdateMetricsOptions,
): Promise<void> {
  try {
    requireSafeTerminalId(terminalId);
    const result = LoopMetricsSchema.safeParse(metrics);
    if (!result.success) {
      throw new StateValidationError({
        document: LOOP_METRICS_KEY,
        terminalId,
        issues: schemaDiagnostics(result.error.issues, metrics),
      });
    }
    const text = serializeDocument(result.data, LOOP_METRICS_KEY, terminalId);
    await storeCall(`write loop_metrics of terminal "${terminalId}"`, () =>
      // Derived from loop_state, rewritten after every iteration: no need to outlast a power loss.
      store.set(terminalId, LOOP_METRICS_KEY, text, { durable: false }),
    );
  } catch (error) {
    report(options.onError, error);
  }
}

/**
 * Reads a terminal's `loop_metrics` document. Never throws: a missing document gives `null`,
 * and so does a failure, which also goes to `onError`. A corrupt document is not recovered
 * from its backup: metrics are derived from the state, and the next update rewrites them.
 *
 * @param store - the state store.
 * @param terminalId - a safe terminal id.
 * @param options - where failures go.
 * @returns the metrics, or `null`.
 */
export async function readMetrics(
  store: StateStore,
  terminalId: string,
  options?: ReadMetricsOptions | null,
): Promise<LoopMetrics | null> {
  try {
    requireSafeTerminalId(terminalId);
    const action = `read loop_metrics of terminal "${terminalId}"`;
    const text = storedText(
      await storeCall(action, () => store.get(terminalId, LOOP_METRICS_KEY)),
      action,
    );
    return text === null ? null : metricsFromText(text, terminalId);
  } catch (error) {
    report(options?.onError, error);
    return null;
  }
}

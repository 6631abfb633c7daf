import { performance } from "node:perf_hooks";

/** The figures of one benchmark, in milliseconds per run. */
export interface Measurement {
  readonly name: string;
  readonly runs: number;
  readonly medianMs: number;
  readonly p95Ms: number;
  readonly minMs: number;
}

/** Options of {@link measure}. */
export interface MeasureOptions {
  /** Measured runs (default 200). */
  readonly runs?: number;
  /** Unmeasured runs first (default 20). */
  readonly warmup?: number;
  /** Runs, unmeasured, before every run: puts back what a run changed. */
  readonly before?: () => unknown;
}

/**
 * Runs `task` `warmup` times unmeasured, then `runs` times measured, and returns the median,
 * 95th percentile and minimum duration of one run.
 */
export async function measure(
  name: string,
  task: () => unknown,
  { runs = 200, warmup = 20, before }: MeasureOptions = {},
): Promise<Measurement> {
  for (let index = 0; index < warmup; index += 1) {
    await before?.();
    await task();
  }
  const durations: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    await before?.();
    const start = performance.now();
    await task();
    durations.push(performance.now() - start);
  }
  durations.sort((a, b) => a - b);
  const at = (fraction: number) =>
    durations[Math.min(durations.length - 1, Math.floor(fraction * durations.length))] ?? 0;
  return { name, runs, medianMs: at(0.5), p95Ms: at(0.95), minMs: durations[0] ?? 0 };
}

/** Prints measurements as an aligned table, with an optional target per row. */
export function report(title: string, rows: readonly (Measurement & { target?: string })[]): void {
  console.log(`\n${title}`);
  const width = Math.max(...rows.map((row) => row.name.length));
  for (const row of rows) {
    const figures = `median ${row.medianMs.toFixed(3)} ms  p95 ${row.p95Ms.toFixed(3)} ms  min ${row.minMs.toFixed(3)} ms  (${row.runs} runs)`;
    console.log(
      `  ${row.name.padEnd(width)}  ${figures}${row.target ? `  target ${row.target}` : ""}`,
    );
  }
}

/** The widest bar drawn, in columns (the bar alone, without the brackets). */
export const MAXIMUM_BAR_WIDTH = 40;

/**
 * A progress bar of tasks done, its count and percentage: `[████████░░░░░░░░░░░░] 2/5 40%`.
 * The percentage is rounded down, so 100% means every task is done; a plan without tasks
 * shows an empty bar and `0/0`.
 *
 * @param done - tasks done.
 * @param total - tasks in all.
 * @param width - the columns available for the whole text; the bar takes what the count and
 *   percentage leave, from 5 to {@link MAXIMUM_BAR_WIDTH} columns.
 */
export function renderProgressBar(done: number, total: number, width: number): string {
  const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
  const count = `${done}/${total}`;
  const percent = total > 0 ? ` ${Math.floor(ratio * 100)}%` : "";
  const barWidth = Math.max(
    5,
    Math.min(MAXIMUM_BAR_WIDTH, width - count.length - percent.length - 3),
  );
  const filled = Math.floor(ratio * barWidth);
  return `[${"█".repeat(filled)}${"░".repeat(barWidth - filled)}] ${count}${percent}`;
}

/**
 * A cost in US dollars for people: `$0.42`, or `cost unknown` when the agent reported none (an
 * executor that does not report cost leaves it undefined: that is not `$0.00`).
 *
 * @param costUsd - the cost, or `null`/`undefined` when unknown.
 */
export function formatCost(costUsd: number | null | undefined): string {
  return costUsd === null || costUsd === undefined || !Number.isFinite(costUsd)
    ? "cost unknown"
    : `$${costUsd.toFixed(2)}`;
}

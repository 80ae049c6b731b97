/**
 * A session's cost after one more task: null as soon as one task's price is unknown (a partial
 * sum would be a wrong figure). Sessions recorded before costs were kept start from their first costed task.
 */
export function addCost(meta: { total_cost_usd?: number | null }, more: number | null): number | null {
  if (more === null) return null;
  const before = meta.total_cost_usd;
  if (before === null) return null;
  return Math.round(((before ?? 0) + more) * 1_000_000) / 1_000_000;
}

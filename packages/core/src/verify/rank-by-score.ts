/**
 * The ranking of scored tasks, best first and equal scores in their given order: what a
 * stable sort by descending score gives, computed by counting (scores take few distinct
 * values) in time linear in their number.
 *
 * @param scaled - scores in millionths (integers), in the tasks' order.
 * @param count - how many entries of `scaled` to rank.
 * @param into - where to write the ranking (reused between calls); at least `count` long.
 * @returns the first `count` entries of `into`: indexes into `scaled`, best first.
 */
export function rankByScore(
  scaled: Int32Array,
  count: number,
  into: Int32Array = new Int32Array(count),
): Int32Array {
  // Pass 1: how many tasks have each score. `last…` skips the map lookup for runs of one score.
  const slotOf = new Map<number, number>();
  let lastValue = -1;
  let lastCount = 0;
  for (let index = 0; index < count; index += 1) {
    const value = scaled[index] ?? 0;
    if (value === lastValue) {
      lastCount += 1;
      continue;
    }
    if (lastValue !== -1) slotOf.set(lastValue, (slotOf.get(lastValue) ?? 0) + lastCount);
    lastValue = value;
    lastCount = 1;
  }
  if (lastValue !== -1) slotOf.set(lastValue, (slotOf.get(lastValue) ?? 0) + lastCount);
  // Each score's first slot: the counts of the higher scores added up.
  let offset = 0;
  for (const value of [...slotOf.keys()].sort((left, right) => right - left)) {
    const size = slotOf.get(value) ?? 0;
    slotOf.set(value, offset);
    offset += size;
  }
  // Pass 2: place each task at its score's next slot, so equal scores keep their order.
  lastValue = -1;
  let slot = 0;
  for (let index = 0; index < count; index += 1) {
    const value = scaled[index] ?? 0;
    if (value !== lastValue) {
      if (lastValue !== -1) slotOf.set(lastValue, slot);
      lastValue = value;
      slot = slotOf.get(value) ?? 0;
    }
    into[slot] = index;
    slot += 1;
  }
  return into.subarray(0, count);
}

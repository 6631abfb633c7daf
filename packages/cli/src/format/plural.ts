/**
 * A count with its noun, singular for one: `1 iteration`, `3 iterations`, `0 tasks`. For nouns
 * whose plural is a plain `s` (every noun the CLI counts).
 *
 * @param count - how many.
 * @param noun - the singular noun.
 */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

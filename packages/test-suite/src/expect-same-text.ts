import { assert } from "vitest";

/** Characters shown either side of the first difference in a failure message. */
const contextLength = 24;

/**
 * Asserts that `actual` is exactly `expected`. On failure it reports the lengths and the first
 * differing position with a little context, instead of diffing two megabyte-long strings.
 *
 * @param actual - the text read back (or `null`).
 * @param expected - the text that was written.
 * @param what - names the read in the failure message.
 */
export function expectSameText(actual: string | null, expected: string, what: string): void {
  if (actual === expected) return;
  if (actual === null) {
    assert.fail(`${what}: expected a text of ${expected.length} characters, got null`);
  }
  let index = 0;
  while (index < actual.length && actual[index] === expected[index]) index += 1;
  const around = (text: string) =>
    JSON.stringify(text.slice(Math.max(0, index - contextLength), index + contextLength));
  assert.fail(
    `${what}: expected ${expected.length} characters, got ${actual.length}; first difference at ${index}: expected …${around(expected)}…, got …${around(actual)}…`,
  );
}

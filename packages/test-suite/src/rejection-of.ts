import { assert } from "vitest";

/**
 * Calls `call` and returns what it threw or rejected with; fails the test when it succeeds.
 * Catches synchronous throws too, so a store that throws before returning its promise is
 * held to the same contract as one that rejects.
 *
 * @param call - the store call expected to fail.
 * @param what - names the call in the failure message.
 */
export async function rejectionOf(call: () => Promise<unknown>, what: string): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return assert.fail(`Expected ${what} to throw, but it succeeded`);
}

import { StateStoreError } from "@loop/core";

/** The longest document key, as the file store allows. */
const maximumKeyLength = 128;

/**
 * Refuses a document key outside the file store's rule (1 to 128 of `A-Z a-z 0-9 _ -`, so
 * every `[a-z_]+` key the `StateStore` contract requires), so a state written here could be
 * moved to files and back.
 *
 * @throws {StateStoreError} naming the key and the rule.
 */
export function assertSafeDocumentKey(key: unknown): asserts key is string {
  if (
    typeof key === "string" &&
    key.length > 0 &&
    key.length <= maximumKeyLength &&
    /^[A-Za-z0-9_-]+$/.test(key)
  ) {
    return;
  }
  const text = String(key);
  const shown = JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
  throw new StateStoreError({
    message: `Unsafe state document key ${shown}: a key is 1 to ${maximumKeyLength} characters from A-Z a-z 0-9 _ -`,
  });
}

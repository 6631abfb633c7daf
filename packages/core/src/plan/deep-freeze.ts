/**
 * Freezes a plain value and everything reachable from it (arrays and plain objects), so
 * that no caller holding it can change it.
 *
 * @param value - the value to freeze.
 * @returns the same value, frozen.
 */
export function deepFreeze<Value>(value: Value): Value {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

/**
 * Freezes a plain value and everything reachable from it (arrays and plain objects), so
 * that no caller holding it can change it.
 *
 * @param value - the value to freeze.
 * @returns the same value, frozen.
 */
export function deepFreeze<Value>(value: Value): Value {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  // An array's items without copying them (a plan's tasks are thousands, most already frozen).
  if (Array.isArray(value)) for (const item of value) deepFreeze(item);
  else for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

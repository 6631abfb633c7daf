import { fnv1aHash } from "../status/fnv-hash.js";

/**
 * The id under which a store locks a plan file while a loop runs it (the store's own lock, as
 * for a terminal): `plan-` and 16 hex digits of the plan path's hash, a safe terminal id. So a
 * second loop on the same plan, from any terminal, is refused.
 *
 * @param planPath - the plan's path as the loop was given it (absolute for a file plan).
 */
export function planLockId(planPath: string): string {
  return `plan-${fnv1aHash(planPath)}`;
}

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

/**
 * The id under which a store locks a project while a loop runs in it, when its terminals share
 * one plan (`plans.allow_per_terminal_plan: false`, the default): `project-` and 16 hex digits
 * of the project folder's hash. So a second loop in the project, from any terminal and on any
 * plan, is refused.
 *
 * @param projectRoot - the project's folder as the loop was given it (`RunLoopOptions.projectRoot`).
 */
export function projectLockId(projectRoot: string): string {
  return `project-${fnv1aHash(projectRoot)}`;
}

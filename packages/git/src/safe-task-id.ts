import { createHash } from "node:crypto";

/** Longest readable part of a safe id, in characters (the hash follows). */
const maxSlugLength = 48;

/**
 * The name a task id gets in branch names, ref names and directory names: a readable slug of
 * the id (ASCII letters, digits, `.`, `_` and `-`; accents dropped; anything else becomes `-`;
 * no leading `-` or `.`, no `..`) followed by `-` and the first 12 hex digits of the id's
 * SHA-256. So every task id — spaces, slashes, unicode, `..`, a leading `-`, an empty slug —
 * gives a valid, distinct git ref component and directory name (never ending in `.lock` or
 * `.`, never `kept`), and ids that differ only by case or by characters the slug drops stay
 * apart, also on case-insensitive file systems. The exact id is kept in the workspace's
 * record, not recovered from this name.
 *
 * @param taskId - the task id, any text.
 * @returns e.g. `TASK-001-3f2a9c0d1b7e` for `TASK-001`.
 */
export function safeTaskId(taskId: string): string {
  const hash = createHash("sha256").update(taskId, "utf8").digest("hex").slice(0, 12);
  const slug = taskId
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/-{2,}/g, "-")
    .replace(/^[-.]+/, "")
    .slice(0, maxSlugLength)
    .replace(/[-.]+$/, "");
  return slug === "" ? `task-${hash}` : `${slug}-${hash}`;
}

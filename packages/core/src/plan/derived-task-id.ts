const ascii = /^\p{ASCII}*$/u;

/** Longest slug kept, in code points, before cutting at a word boundary. */
const maximumSlugLength = 48;

/**
 * The slug of a task's title: NFKC-normalised, lowercased, every run of characters that
 * are not letters, marks or numbers replaced by `-`, leading and trailing `-` removed,
 * and cut to at most 48 code points at the last word boundary (`-`) that fits (a single
 * longer word is cut at 48).
 *
 * @param title - the task's plain-text title.
 * @returns the slug; `""` when the title has no letter or number.
 *
 * @example
 * ```ts
 * slugifyTaskTitle("Fix the login bug!"); // "fix-the-login-bug"
 * ```
 */
export function slugifyTaskTitle(title: string): string {
  // NFKC leaves ASCII as it is.
  const slug = (ascii.test(title) ? title : title.normalize("NFKC"))
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/gu, "");
  // No more UTF-16 code units than the limit: no more code points either.
  if (slug.length <= maximumSlugLength) return slug;
  const codePoints = Array.from(slug);
  if (codePoints.length <= maximumSlugLength) return slug;
  let cut = codePoints.slice(0, maximumSlugLength);
  if (codePoints[maximumSlugLength] !== "-") {
    const lastBoundary = cut.lastIndexOf("-");
    if (lastBoundary > 0) cut = cut.slice(0, lastBoundary);
  }
  return cut.join("").replace(/-+$/u, "");
}

/**
 * 32-bit FNV-1a hash of a string's UTF-16 code units, as 8 lowercase hex digits.
 *
 * @param text - the text to hash.
 * @returns the hash, for example `811c9dc5` for `""`.
 */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/**
 * The id an item without an explicit id would get if no other item competed for it: the
 * slug of its title ({@link slugifyTaskTitle}), or `task-` and the FNV-1a hash of the
 * NFKC-normalised title when the slug is empty (a title of only emoji or punctuation).
 *
 * @param title - the task's plain-text title.
 * @returns the base of its derived id.
 */
export function derivedTaskIdBase(title: string): string {
  const slug = slugifyTaskTitle(title);
  return slug === "" ? `task-${fnv1a(title.normalize("NFKC"))}` : slug;
}

/** What id assignment needs to know of one task item. */
export interface TaskIdInput {
  /** The item's explicit id, or `null` when it has none. */
  readonly explicitId: string | null;
  /** The item's plain-text title. */
  readonly title: string;
}

/**
 * Gives every task its id, in document order: an explicit id is kept as written; an item
 * without one gets its {@link derivedTaskIdBase}, and when an earlier item already took
 * that base, the base plus `-2`, `-3`, … — the first suffix that no explicit id, no
 * other item's base and no id given so far uses.
 *
 * A derived id therefore depends only on the item's own title and on the earlier items
 * with the same base: editing any other line (checking a box, rewording another task)
 * leaves it unchanged.
 *
 * @param tasks - the task items in document order.
 * @returns their ids, in the same order.
 */
export function assignTaskIds(tasks: readonly TaskIdInput[]): string[] {
  return assignIds(
    tasks.map((task) => task.explicitId),
    tasks.map((task) => task.title),
  );
}

/**
 * {@link assignTaskIds} on the explicit ids and titles of the task items, by index (no
 * object per item).
 *
 * @param explicitIds - each item's explicit id, or `null` when it has none.
 * @param titles - each item's plain-text title.
 * @returns their ids, in the same order.
 */
export function assignIds(
  explicitIds: readonly (string | null)[],
  titles: readonly string[],
): string[] {
  if (!explicitIds.includes(null)) return explicitIds as string[];
  const count = explicitIds.length;
  const bases: (string | null)[] = new Array(count);
  const explicit = new Set<string>();
  const reserved = new Set<string>();
  for (let index = 0; index < count; index += 1) {
    const explicitId = explicitIds[index] ?? null;
    const base = explicitId === null ? derivedTaskIdBase(titles[index] ?? "") : null;
    bases[index] = base;
    if (explicitId !== null) explicit.add(explicitId);
    reserved.add(explicitId ?? base ?? "");
  }
  const given = new Set<string>();
  // The next suffix to try for each base: each suffix is tried once per base, so thousands of
  // items with the same title take linear time, not quadratic.
  const nextSuffix = new Map<string, number>();
  const ids: string[] = new Array(count);
  for (let index = 0; index < count; index += 1) {
    const explicitId = explicitIds[index] ?? null;
    if (explicitId !== null) {
      ids[index] = explicitId;
      continue;
    }
    const base = bases[index] ?? "";
    let id = base;
    if (given.has(base) || explicit.has(base)) {
      let suffix = nextSuffix.get(base) ?? 2;
      id = `${base}-${suffix}`;
      while (reserved.has(id) || given.has(id)) {
        suffix += 1;
        id = `${base}-${suffix}`;
      }
      nextSuffix.set(base, suffix + 1);
    }
    given.add(id);
    ids[index] = id;
  }
  return ids;
}

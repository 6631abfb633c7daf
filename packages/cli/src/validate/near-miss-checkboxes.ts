/** A line that looks like a task but is not one to a markdown parser. */
export interface NearMissCheckbox {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column of the checkbox. */
  readonly column: number;
  /** The checkbox as written (`[]`, `[ x]`). */
  readonly written: string;
}

/** A list item's marker and the bracket after it: `- []`, `* [ x]`, `1. [-]`, `-[ ]`. */
const BOXED_ITEM = /^(\s*(?:[-*+]|\d{1,9}[.)]))(\s*)(\[[^\]\n]{0,3}\])(?=\s|$)/;

/** A fence opening or closing a code block (``` or ~~~). */
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/**
 * The list items of a markdown plan whose checkbox is not one a GFM task list takes (`[ ]`,
 * `[x]`, `[X]` after the marker and one space): `- [] TASK-4`, `- [ x] …`, `-[ ] …`. The plan
 * parser rightly reads them as plain list items, so they would silently not be tasks. Lines in
 * fenced code blocks are not looked at. Pure.
 *
 * @param markdown - the plan's text.
 * @returns each near miss, in order.
 */
export function findNearMissCheckboxes(markdown: string): NearMissCheckbox[] {
  const found: NearMissCheckbox[] = [];
  let fence: string | null = null;
  markdown.split(/\r?\n/).forEach((text, index) => {
    const opener = FENCE.exec(text)?.[1];
    if (opener !== undefined) {
      if (fence === null) fence = opener[0] ?? null;
      else if (opener[0] === fence) fence = null;
      return;
    }
    if (fence !== null) return;
    const match = BOXED_ITEM.exec(text);
    if (match === null) return;
    const [, marker = "", gap = "", box = ""] = match;
    // Only what is meant as a box: blank, or an x, with spaces off (not `[1]`, not `[A]`).
    if (!/^\[\s*[xX]?\s*\]$/.test(box)) return;
    const valid = gap.length >= 1 && gap.length <= 4 && /^\[[ xX]\]$/.test(box);
    if (valid) return;
    found.push({ line: index + 1, column: marker.length + gap.length + 1, written: box });
  });
  return found;
}

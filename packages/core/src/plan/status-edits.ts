import type { ListItem, RootContent } from "mdast";
import {
  dominantLineEnding,
  type LineEnding,
  lineEndAt,
  lineEndingAt,
  lineStartAt,
} from "./line-endings.js";
import type { PlanAnalysis } from "./plan-analysis.js";
import type { PlanStatusUpdate } from "./plan-status-update.js";
import type { PlanUpdateIssue } from "./plan-update-error.js";
import type { StatusValue } from "./status-entries.js";
import { isKnownStatusKey, normalizeStatusKey, STATUS_KEYS } from "./status-keys.js";
import type { TextSplice } from "./text-splice.js";

/** One RALPH_STATUS value to write. */
interface WantedValue {
  /** Normalised key, to find the existing entries. */
  readonly normalizedKey: string;
  /** The key's spelling when the entry is added. */
  readonly key: string;
  /** The value's text. */
  readonly text: string;
  /** Whether an existing entry already holds this value (then it is left alone). */
  readonly holds: (entry: StatusValue) => boolean;
}

const keyPattern = /^[A-Za-z][A-Za-z0-9_ -]*$/u;
const lineBreak = /[\r\n]/u;

/**
 * Turns a status update into splices: every existing entry of a key gets its value's
 * characters replaced (key spelling and markup around the value kept; an entry that
 * already holds the value is left alone); keys without an entry are added after the
 * section's last entry in the same form, or under the heading, or in a new
 * `## RALPH_STATUS` section after the title. Invalid values are reported in `issues`.
 *
 * @param analysis - the analysed plan.
 * @param update - the values to write.
 * @param issues - receives one issue per invalid value or key.
 * @returns the splices, on the plan's body.
 */
export function statusSplices(
  analysis: PlanAnalysis,
  update: PlanStatusUpdate,
  issues: PlanUpdateIssue[],
): TextSplice[] {
  const wanted = wantedValues(update, issues);
  if (issues.length > 0 || wanted.length === 0) return [];
  const entries = analysis.statusEntries;
  const splices: TextSplice[] = [];
  const missing: WantedValue[] = [];
  for (const value of wanted) {
    const existing = entries.filter((entry) => entry.normalizedKey === value.normalizedKey);
    if (existing.length === 0) missing.push(value);
    for (const entry of existing) {
      if (value.holds(entry)) continue;
      const insert = (entry.needsSpace ? " " : "") + value.text;
      splices.push({ start: entry.valueStart, end: entry.valueEnd, insert });
    }
  }
  if (missing.length > 0) splices.push(additionSplice(analysis, missing));
  return splices;
}

function wantedValues(update: PlanStatusUpdate, issues: PlanUpdateIssue[]): WantedValue[] {
  const wanted: WantedValue[] = [];
  const invalid = (message: string) => issues.push({ kind: "invalid-status", message });
  const { exitSignal, completionIndicators, currentTask } = update;

  if (exitSignal !== undefined) {
    if (typeof exitSignal === "boolean") {
      wanted.push(known("exit_signal", String(exitSignal), exitSignal));
    } else {
      invalid(`exitSignal must be true or false, got ${String(exitSignal)}`);
    }
  }
  if (completionIndicators !== undefined) {
    if (!Number.isSafeInteger(completionIndicators) || completionIndicators < 0) {
      invalid(
        `completionIndicators must be a whole number, 0 or more, got ${String(completionIndicators)}`,
      );
    } else {
      const text = String(completionIndicators);
      wanted.push(known("completion_indicators", text, completionIndicators));
    }
  }
  if (currentTask !== undefined) {
    if (currentTask !== null && (typeof currentTask !== "string" || lineBreak.test(currentTask))) {
      invalid(`currentTask must be one line of text or null, got ${JSON.stringify(currentTask)}`);
    } else {
      const task = currentTask === null || currentTask.trim() === "" ? null : currentTask.trim();
      wanted.push(known("current_task", task ?? "none", task));
    }
  }
  for (const [key, value] of Object.entries(update.fields ?? {})) {
    const field = wantedField(key, value, wanted, invalid);
    if (field !== null) wanted.push(field);
  }
  return wanted;
}

function known(
  normalizedKey: "exit_signal" | "completion_indicators" | "current_task",
  text: string,
  value: boolean | number | string | null,
): WantedValue {
  const definition = STATUS_KEYS[normalizedKey];
  return {
    normalizedKey,
    key: definition.canonical,
    text,
    holds: (entry) => {
      const current = definition.parse(entry.value);
      return current.ok && current.value === value;
    },
  };
}

function wantedField(
  key: string,
  value: unknown,
  wanted: readonly WantedValue[],
  invalid: (message: string) => void,
): WantedValue | null {
  const normalizedKey = normalizeStatusKey(key);
  if (!keyPattern.test(key) || key.trim() !== key) {
    invalid(
      `Status key "${key}" must start with a letter and hold only letters, digits, spaces, "_" and "-"`,
    );
    return null;
  }
  if (typeof value !== "string" || lineBreak.test(value)) {
    invalid(`Status value of "${key}" must be one line of text, got ${JSON.stringify(value)}`);
    return null;
  }
  if (wanted.some((other) => other.normalizedKey === normalizedKey)) {
    invalid(
      `Status key "${key}" is given twice (as a property or under another spelling); give it once`,
    );
    return null;
  }
  const text = value.trim();
  if (isKnownStatusKey(normalizedKey)) {
    const parsed = STATUS_KEYS[normalizedKey].parse(text);
    if (!parsed.ok) {
      invalid(`Status value of "${key}" must be ${parsed.expected}, got "${text}"`);
      return null;
    }
  }
  return { normalizedKey, key, text, holds: (entry) => entry.value === text };
}

function additionSplice(analysis: PlanAnalysis, missing: readonly WantedValue[]): TextSplice {
  const { body } = analysis.tree;
  const section = analysis.statusSection;
  const lines = missing.map((value) => `${value.key}: ${value.text}`);
  // New entries follow the last entry that is not in a nested list, so they stay top-level.
  const entries = section?.entries ?? [];
  const lastEntry =
    entries.findLast((entry) => entry.item === null || section?.topLevelItems.has(entry.item)) ??
    entries.at(-1);
  const anchorItem = lastEntry === undefined ? (section?.lastItem ?? null) : lastEntry.item;

  if (anchorItem !== null) return afterItem(body, anchorItem, lines);
  if (lastEntry !== undefined) {
    const indent = blankIndent(
      body.slice(lineStartAt(body, lastEntry.lineStart), lastEntry.lineStart),
    );
    const eol = lineEndingAt(body, lastEntry.lineEnd) ?? dominantLineEnding(body);
    return insertion(lastEntry.lineEnd, lines.map((line) => eol + indent + line).join(""));
  }
  const bullets = lines.map((line) => `- ${line}`);
  if (section !== null && section !== undefined) {
    return afterHeadingLine(body, section.heading.position?.end.offset ?? 0, bullets, null);
  }
  return newSectionSplice(analysis, lines);
}

/**
 * Splice adding a `## RALPH_STATUS` section with `lines` to a plan that has none, where the
 * new section holds nothing but its entries: a section runs to the next heading of its level
 * or higher, so one placed above blocks would take them out of the tasks.
 *
 * - Right after the title (the first `#` heading) when a `#` or `##` heading or nothing
 *   follows it;
 * - else right before the first `#` or `##` heading after the title (or, without a title,
 *   the first one);
 * - else at the end of the text, or right before a code block or HTML block that ends it
 *   (which may be unclosed and would swallow what follows).
 *
 * The entries are bullets, unless the line after the section is indented: a list item would
 * take that line in (a heading or a fence indented by 1 to 3 spaces), so they are then
 * written as bare `key: value` lines, which a blank line ends.
 */
function newSectionSplice(analysis: PlanAnalysis, lines: readonly string[]): TextSplice {
  const { body, root } = analysis.tree;
  const eol = dominantLineEnding(body);
  const title = analysis.outline.titleHeading;
  const children = root.children;
  const titleIndex = title === null ? -1 : children.indexOf(title);
  const afterTitle = children[titleIndex + 1];
  const entriesBefore = (node: RootContent | undefined) =>
    node !== undefined && startsIndented(body, node.position?.start.offset ?? 0)
      ? lines
      : lines.map((line) => `- ${line}`);
  if (title !== null && (afterTitle === undefined || isSectionBoundary(afterTitle))) {
    const entries = entriesBefore(afterTitle);
    return afterHeadingLine(body, title.position?.end.offset ?? 0, entries, "## RALPH_STATUS");
  }
  const boundary = children.slice(titleIndex + 1).find(isSectionBoundary);
  const last = children.at(-1);
  const before =
    boundary ??
    (last !== undefined && (last.type === "code" || last.type === "html") ? last : null);
  if (before !== null) {
    const section = `## RALPH_STATUS${eol}${eol}${entriesBefore(before).join(eol)}`;
    const at = lineStartAt(body, before.position?.start.offset ?? 0);
    const previousLineBlank = at === 0 || lastLine(body.slice(0, at)).trim() === "";
    return insertion(at, (previousLineBlank ? "" : eol) + section + eol + eol);
  }
  const section = `## RALPH_STATUS${eol}${eol}${entriesBefore(undefined).join(eol)}`;
  const endsWithLineBreak = lineEndingAt(body, body.length - 1) !== null;
  let prefix = endsWithLineBreak ? "" : eol;
  if (body !== "" && lastLine(body).trim() !== "") prefix += eol;
  return insertion(body.length, (body === "" ? "" : prefix) + section + eol);
}

/** The last line of a text, its line ending left out (the line before it when it ends in one). */
function lastLine(text: string): string {
  const content = text.replace(/(?:\r\n|\n|\r)$/u, "");
  return content.slice(lineStartAt(content, content.length));
}

/** Whether the line holding `offset` starts with a space or a tab. */
function startsIndented(body: string, offset: number): boolean {
  const code = body.charCodeAt(lineStartAt(body, offset));
  return code === 32 || code === 9;
}

/** A heading that ends any `##` section before it: a `#` or `##` heading. */
function isSectionBoundary(node: RootContent): boolean {
  return node.type === "heading" && node.depth <= 2;
}

function afterItem(body: string, item: ListItem, lines: readonly string[]): TextSplice {
  const start = item.position?.start.offset ?? 0;
  const indent = blankIndent(body.slice(lineStartAt(body, start), start));
  const marker = /^(?:[-*+]|([0-9]{1,9})([.)]))/u.exec(body.slice(start)) ?? ["-"];
  const afterMarker = start + marker[0].length;
  const spacing = /^[ \t]{1,4}(?![ \t])/u.exec(body.slice(afterMarker))?.[0] ?? " ";
  const number = marker[1] === undefined ? undefined : Number(marker[1]);
  const bullet = (index: number) =>
    number === undefined ? marker[0] : `${number + index + 1}${marker[2] ?? "."}`;
  const end = itemContentEnd(body, item);
  const at = lineEndAt(body, end);
  const eol = lineEndingAt(body, at) ?? dominantLineEnding(body);
  const text = lines.map((line, index) => eol + indent + bullet(index) + spacing + line).join("");
  return insertion(at, text);
}

function itemContentEnd(body: string, item: ListItem): number {
  let end = item.position?.end.offset ?? 0;
  while (end > 0 && (body.charCodeAt(end - 1) === 10 || body.charCodeAt(end - 1) === 13)) end -= 1;
  return end;
}

/**
 * Splice inserting bullets after a heading's line: a blank line, then `newHeading` and a
 * blank line when one is given, then the bullets, then a blank line when text follows.
 */
function afterHeadingLine(
  body: string,
  headingEnd: number,
  bullets: readonly string[],
  newHeading: string | null,
): TextSplice {
  const at = lineEndAt(body, headingEnd);
  const existing = lineEndingAt(body, at);
  const eol: LineEnding =
    newHeading === null ? (existing ?? dominantLineEnding(body)) : dominantLineEnding(body);
  let block = eol + eol + (newHeading === null ? "" : newHeading + eol + eol) + bullets.join(eol);
  if (existing !== null) {
    const nextLineStart = at + existing.length;
    if (body.slice(nextLineStart, lineEndAt(body, nextLineStart)).trim() !== "") block += eol;
  }
  return insertion(at, block);
}

function insertion(at: number, insert: string): TextSplice {
  return { start: at, end: at, insert };
}

/** Keeps an indentation's tabs and turns every other character into a space. */
function blankIndent(indent: string): string {
  return indent.replace(/[^\t]/gu, " ");
}

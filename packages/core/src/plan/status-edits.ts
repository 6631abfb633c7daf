import type { ListItem } from "mdast";
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
import type { StatusEntry } from "./status-entries.js";
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
  readonly holds: (entry: StatusEntry) => boolean;
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
  const entries = analysis.statusSection?.entries ?? [];
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
  const title = analysis.outline.titleHeading;
  const eol = dominantLineEnding(body);
  if (title !== null) {
    return afterHeadingLine(body, title.position?.end.offset ?? 0, bullets, "## RALPH_STATUS");
  }
  let block = `## RALPH_STATUS${eol}${eol}${bullets.join(eol)}${eol}`;
  if (body !== "" && lineEndingAt(body, 0) === null) block += eol;
  return insertion(0, block);
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

import type { Diagnostic } from "../errors/diagnostic.js";
import type { LineColumn } from "../errors/line-column.js";
import { createLineLocator } from "./line-locator.js";
import { locateStatusBlocks, type StatusBlockLocation } from "./locate-status-blocks.js";
import { leadingMarkup, stripListMarker, unwrapMarkup } from "./markup.js";
import type { StatusBlock, StatusBlockField } from "./status-block.js";
import {
  knownField,
  misspelledField,
  STATUS_FIELD_PROPERTIES,
  STATUS_FIELD_READERS,
  type StatusBlockValues,
} from "./status-fields.js";
import type { TextLine } from "./text-lines.js";

/** A code fence line, which agents put around the block or inside it. */
const FENCE_LINE = /^\s*(?:`{3,}|~{3,})[\w-]*\s*$/;

/** One `KEY: value` line of a block, split and cleaned, with where its parts start. */
interface FieldLine {
  readonly key: string;
  readonly value: string;
  readonly keyOffset: number;
  readonly valueOffset: number;
}

/** Splits a block line into key and value; `null` when it has no `:` or no key. */
function splitFieldLine(line: TextLine): FieldLine | null {
  const content = stripListMarker(line.text);
  const contentOffset = line.start + line.text.length - content.length;
  const colon = content.indexOf(":");
  if (colon < 0) return null;
  const writtenKey = content.slice(0, colon);
  const key = trimUnderscores(writtenKey.replace(/[*`~]/g, "").trim()).trim();
  if (key === "") return null;
  // `**STATUS:** COMPLETE` and `` `STATUS: COMPLETE` ``: the key's markup closes in the value.
  const opening = leadingMarkup(writtenKey);
  const trimmedKey = writtenKey.trim();
  const openInKey =
    opening !== "" && !(trimmedKey.length > opening.length * 2 && trimmedKey.endsWith(opening));
  let value = content.slice(colon + 1).trim();
  if (openInKey && value.startsWith(opening)) value = value.slice(opening.length);
  else if (openInKey && value.endsWith(opening)) value = value.slice(0, -opening.length);
  value = unwrapMarkup(value);
  const valueIndex = value === "" ? -1 : content.indexOf(value, colon + 1);
  return {
    key,
    value,
    keyOffset: contentOffset + content.indexOf(key.charAt(0)),
    valueOffset: contentOffset + (valueIndex < 0 ? colon + 1 : valueIndex),
  };
}

/** The text without the underscores it starts and ends with (a loop, not a regex: linear). */
function trimUnderscores(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 95) start += 1;
  while (end > start && text.charCodeAt(end - 1) === 95) end -= 1;
  return text.slice(start, end);
}

/** Reads the lines of one closed block into a {@link StatusBlock}. */
function readBlock(
  block: StatusBlockLocation,
  endLine: TextLine,
  locate: (offset: number) => LineColumn,
): StatusBlock {
  const values: StatusBlockValues = {
    status: null,
    tasksCompletedThisLoop: null,
    filesModified: null,
    testsStatus: null,
    workType: null,
    exitSignal: null,
    recommendation: null,
  };
  // A Map, then an object: a key written `__proto__` is kept as a field like any other.
  const fields = new Map<string, string>();
  const problems: Diagnostic[] = [];
  const seen = new Set<StatusBlockField>();
  const report = (message: string, offset: number, path?: readonly string[]): void => {
    problems.push({
      message,
      ...locate(offset),
      ...(path === undefined ? {} : { path }),
    });
  };

  for (const line of block.lines) {
    if (line.text.trim() === "" || FENCE_LINE.test(line.text)) continue;
    const fieldLine = splitFieldLine(line);
    if (fieldLine === null) {
      const indent = line.text.length - line.text.trimStart().length;
      report("expected a `KEY: value` field line", line.start + indent);
      continue;
    }
    const { key, value } = fieldLine;
    fields.set(key, value);
    const field = knownField(key);
    if (field === null) {
      const intended = misspelledField(key);
      if (intended !== null) {
        report(`unknown field ${key}; did you mean ${intended}?`, fieldLine.keyOffset, [key]);
      }
      continue;
    }
    if (seen.has(field)) {
      report(`${field} appears more than once; the last value is used`, fieldLine.keyOffset, [
        field,
      ]);
      values[STATUS_FIELD_PROPERTIES[field]] = null;
    }
    seen.add(field);
    if (value === "") {
      report(`${field} has no value`, fieldLine.valueOffset, [field]);
      continue;
    }
    const expected = STATUS_FIELD_READERS[field](value, values);
    if (expected !== null) {
      report(`${field} is ${JSON.stringify(value)}: ${expected}`, fieldLine.valueOffset, [field]);
    }
  }

  return {
    ...values,
    fields: Object.fromEntries(fields),
    problems,
    line: locate(block.startLine.start).line,
    endLine: locate(endLine.start).line,
  };
}

/**
 * Reads the last closed block of those located in a text.
 *
 * @param text - the text the blocks were located in.
 * @param blocks - its blocks, from `locateStatusBlocks`.
 * @returns the last closed block, or `null` when none is closed.
 */
export function readLastClosedBlock(
  text: string,
  blocks: readonly StatusBlockLocation[],
): StatusBlock | null {
  for (let index = blocks.length - 1; index >= 0; index -= 1) {
    const block = blocks[index];
    if (block?.endLine != null) return readBlock(block, block.endLine, createLineLocator(text));
  }
  return null;
}

/**
 * Reads the `---RALPH_STATUS---` … `---END_RALPH_STATUS---` block of an agent's answer.
 *
 * The last closed block wins: an earlier one may be the agent quoting the prompt's template,
 * and a block still open at the end of the text (a cut-off answer) is ignored. Markers and
 * fields are read tolerantly: any case, spacing, list bullets, `**bold**`, `_emphasis_` or
 * backticks around keys, values and markers, and code fences around or inside the block. A
 * malformed value leaves its field `null` and is described, with its line and column, in
 * `problems`; nothing is thrown. The whole text is read, in time linear in its length.
 *
 * @param text - the agent's final answer.
 * @returns the last closed block, or `null` when the text has none.
 * @example
 * ```ts
 * const block = parseStatusBlock(`Implemented the parser.
 *
 * ---RALPH_STATUS---
 * STATUS: IN_PROGRESS
 * TASKS_COMPLETED_THIS_LOOP: 1
 * FILES_MODIFIED: three
 * EXIT_SIGNAL: false
 * ---END_RALPH_STATUS---`);
 * block?.status; // "IN_PROGRESS"
 * block?.exitSignal; // false
 * block?.filesModified; // null
 * block?.problems[0]; // { message: 'FILES_MODIFIED is "three": expected a whole number, 0 or more', line: 6, column: 17, path: ["FILES_MODIFIED"] }
 * ```
 */
export function parseStatusBlock(text: string): StatusBlock | null {
  return readLastClosedBlock(text, locateStatusBlocks(text));
}

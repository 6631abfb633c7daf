import type { Diagnostic } from "../errors/diagnostic.js";
import type { LineColumn } from "../errors/line-column.js";
import { splitFieldLine } from "./field-line.js";
import { createLineLocator } from "./line-locator.js";
import { locateStatusBlocks, type StatusBlockLocation } from "./locate-status-blocks.js";
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
 * Reads the `---RALPH_STATUS---` … `---END_RALPH_STATUS---` block of an agent's answer, or its
 * YAML form: a line `RALPH_STATUS:` alone, then `KEY: value` lines, indented or not, up to a
 * blank line, a code fence or the end of the text (so also in a ```` ```yaml ```` fence). The
 * YAML form is a block only when a field the block knows (`STATUS`, `EXIT_SIGNAL`, …) is among
 * its lines, and is closed at its last line.
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

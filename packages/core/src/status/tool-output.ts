import { splitLines } from "./text-lines.js";
import type { TextRange } from "./text-mask.js";

/**
 * The tags agents and harnesses wrap tool calls and their output in: `<tool_result>`,
 * `<function_results>`, Claude Code's `<bash-stdout>`, and the like.
 */
const TOOL_TAG =
  /<((?:tool_result|tool_use|tool_output|function_results|function_calls|command_output|(?:bash-|local-command-)?(?:stdout|stderr)))\b[^>]{0,1000}>/gi;

/** The closing tags of the same names. */
const CLOSING_TOOL_TAG =
  /<\/((?:tool_result|tool_use|tool_output|function_results|function_calls|command_output|(?:bash-|local-command-)?(?:stdout|stderr)))\s*>/gi;

/** Lines longer than this are never single tool-output lines (a stack frame is short). */
const MAX_TOOL_OUTPUT_LINE = 1000;

/** A line that starts a transcript dump running to the next blank line. */
const DUMP_START_LINES: readonly RegExp[] = [
  /^\s*\$ \S/, // a shell prompt: `$ npm test`
  /^\s*\u23bf/, // Claude Code's tool output marker `⎿`
];

/** A single line of tool or test-runner output, however it got into the answer. */
const TOOL_OUTPUT_LINES: readonly RegExp[] = [
  /^\s*\u23fa\s*[\w.-]+\(.*\)\s*$/, // a Claude Code tool call: `⏺ Bash(npm test)`
  /^\s*(?:PASS|FAIL)\s+\S+\.\w+\b/, // jest and vitest file results
  /^\s*(?:Tests?|Test Files|Test Suites|Snapshots):\s+\d+/, // jest summary lines
  /^\s*(?:Test Files|Tests)\s+\d+\s+(?:passed|failed)/, // vitest summary lines
  /^\s*Ran \d+ tests? in /, // unittest
  /^\s*npm (?:ERR!|error|WARN|warn)\b/,
  /^\s*at \S.*[(\s]\S+:\d+:\d+\)?\s*$/, // a JavaScript stack frame
  /^\s*File ".*", line \d+/, // a Python stack frame
  /^\s*Traceback \(most recent call last\):/,
];

/** The first value of a sorted list that is at least `minimum`, or `undefined`. */
function firstAtLeast<Value>(
  sorted: readonly Value[],
  minimum: number,
  key: (value: Value) => number,
): Value | undefined {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const value = sorted[middle];
    if (value !== undefined && key(value) < minimum) low = middle + 1;
    else high = middle;
  }
  return sorted[low];
}

/** The closing tags of a text by lower-cased name, in order: their starts and ends. */
function closingTagsByName(text: string): Map<string, { start: number; end: number }[]> {
  const byName = new Map<string, { start: number; end: number }[]>();
  for (const match of text.matchAll(CLOSING_TOOL_TAG)) {
    const name = (match[1] ?? "").toLowerCase();
    const list = byName.get(name) ?? [];
    list.push({ start: match.index, end: match.index + match[0].length });
    byName.set(name, list);
  }
  return byName;
}

/** The offsets of the line breaks that start a blank line (`\n`, spaces or tabs, `\n`). */
function blankLineStarts(text: string): number[] {
  const starts: number[] = [];
  for (let index = text.indexOf("\n"); index >= 0; index = text.indexOf("\n", index + 1)) {
    let next = index + 1;
    while (text.charCodeAt(next) === 32 || text.charCodeAt(next) === 9) next += 1;
    if (text.charCodeAt(next) === 13) next += 1;
    if (text.charCodeAt(next) === 10) starts.push(index);
  }
  return starts;
}

/**
 * The regions wrapped in tool tags; an unclosed tag runs to the next blank line. Linear in
 * the length of the text: closing tags and blank lines are listed once, then looked up.
 *
 * @param text - the agent's answer.
 * @returns one range per tag, from its opening tag to the end of its closing tag.
 */
export function findToolTags(text: string): TextRange[] {
  const ranges: TextRange[] = [];
  const pattern = new RegExp(TOOL_TAG.source, TOOL_TAG.flags);
  let closings: Map<string, { start: number; end: number }[]> | null = null;
  let blankLines: number[] | null = null;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    closings ??= closingTagsByName(text);
    blankLines ??= blankLineStarts(text);
    const name = (match[1] ?? "").toLowerCase();
    const after = pattern.lastIndex;
    const closing = firstAtLeast(closings.get(name) ?? [], after, (tag) => tag.start);
    const end =
      closing !== undefined
        ? closing.end
        : (firstAtLeast(blankLines, after, (offset) => offset) ?? text.length);
    ranges.push({ start: match.index, end });
    pattern.lastIndex = Math.max(pattern.lastIndex, end);
  }
  return ranges;
}

/** A pytest banner: `==== 3 passed in 0.1s ====`, three `=` or more at both ends. */
function isBanner(line: string): boolean {
  const trimmed = line.trim();
  return trimmed.length >= 6 && trimmed.startsWith("===") && trimmed.endsWith("===");
}

/** Whether one line is a line only tools and test runners print. */
function isToolOutputLine(line: string): boolean {
  if (line.length > MAX_TOOL_OUTPUT_LINE) return false;
  return isBanner(line) || TOOL_OUTPUT_LINES.some((pattern) => pattern.test(line));
}

/**
 * The transcript dumps and single tool-output lines of a text.
 *
 * @param text - the agent's answer.
 * @returns one range per line of tool output.
 */
export function findToolOutputLines(text: string): TextRange[] {
  const ranges: TextRange[] = [];
  let inDump = false;
  for (const line of splitLines(text)) {
    const blank = line.text.trim() === "";
    if (blank || /^\s*(?:`{3,}|~{3,})/.test(line.text)) inDump = false;
    else if (DUMP_START_LINES.some((pattern) => pattern.test(line.text))) inDump = true;
    if (inDump || (!blank && isToolOutputLine(line.text))) {
      ranges.push({ start: line.start, end: line.end });
    }
  }
  return ranges;
}

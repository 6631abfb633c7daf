import { splitLines } from "./text-lines.js";
import type { TextRange } from "./text-mask.js";

/**
 * The tags agents and harnesses wrap tool calls and their output in: `<tool_result>`,
 * `<function_results>`, Claude Code's `<bash-stdout>`, and the like.
 */
const TOOL_TAG =
  /<((?:tool_result|tool_use|tool_output|function_results|function_calls|command_output|(?:bash-|local-command-)?(?:stdout|stderr)))\b[^>]*>/gi;

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
  /^\s*={3,}.*={3,}\s*$/, // pytest banners
  /^\s*Ran \d+ tests? in /, // unittest
  /^\s*npm (?:ERR!|error|WARN|warn)\b/,
  /^\s*at \S.*[(\s]\S+:\d+:\d+\)?\s*$/, // a JavaScript stack frame
  /^\s*File ".*", line \d+/, // a Python stack frame
  /^\s*Traceback \(most recent call last\):/,
];

/**
 * The regions wrapped in tool tags; an unclosed tag runs to the next blank line.
 *
 * @param text - the agent's answer.
 * @returns one range per tag, from its opening tag to the end of its closing tag.
 */
export function findToolTags(text: string): TextRange[] {
  const ranges: TextRange[] = [];
  const pattern = new RegExp(TOOL_TAG.source, TOOL_TAG.flags);
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const name = match[1] ?? "";
    const closing = new RegExp(`</${name}\\s*>`, "gi");
    closing.lastIndex = pattern.lastIndex;
    const closingMatch = closing.exec(text);
    const blankLine = /\n[ \t]*\r?\n/g;
    blankLine.lastIndex = pattern.lastIndex;
    const end =
      closingMatch !== null
        ? closingMatch.index + closingMatch[0].length
        : (blankLine.exec(text)?.index ?? text.length);
    ranges.push({ start: match.index, end });
    pattern.lastIndex = Math.max(pattern.lastIndex, end);
  }
  return ranges;
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
    if (inDump || (!blank && TOOL_OUTPUT_LINES.some((pattern) => pattern.test(line.text)))) {
      ranges.push({ start: line.start, end: line.end });
    }
  }
  return ranges;
}

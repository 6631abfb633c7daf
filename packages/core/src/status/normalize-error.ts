/** The escape character that starts an ANSI colour or cursor sequence. */
const ESCAPE = String.fromCharCode(27);

/** ANSI escape sequences: colours, cursor moves, hyperlinks. */
const ANSI_SEQUENCE = new RegExp(
  `${ESCAPE}(?:\\[[0-9;?]*[ -/]*[@-~]|\\][^${String.fromCharCode(7)}${ESCAPE}]*(?:${String.fromCharCode(7)}|${ESCAPE}\\\\)|[@-Z\\\\-_])`,
  "g",
);

/**
 * What changes between two runs of the same error, and what it becomes. Applied in order:
 * times before durations and line numbers, temporary directories before home directories.
 */
const VOLATILE_PARTS: readonly (readonly [RegExp, string])[] = [
  [ANSI_SEQUENCE, ""],
  // 2026-03-14T10:05:31.123Z, 2026-03-14 10:05:31
  [
    /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g,
    "<time>",
  ],
  // 10:05:31, 10:05:31.123
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, "<time>"],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<uuid>"],
  [/\b0x[0-9a-f]+\b/gi, "<hex>"],
  // macOS and Windows temporary directories, then /tmp, each with its random first component
  [/(?:\/private)?\/var\/folders\/[^/\s]+\/[^/\s]+\/[A-Z]\/[^/\s'"`)\]]+/g, "<tmp>"],
  [/\b[A-Za-z]:\\Users\\[^\\\s]+\\AppData\\Local\\Temp\\[^\\\s'"`)\]]+/gi, "<tmp>"],
  [/(?:\/private)?\/tmp\/[^/\s'"`)\]]+/g, "<tmp>"],
  // home directories differ between machines and users
  [/\/(?:home|Users)\/[^/\s'"`)\]]+/g, "~"],
  [/\b[A-Za-z]:\\Users\\[^\\\s'"`)\]]+/gi, "~"],
  // file.ts:12:5, file.ts(12,5), line 12, column 5
  [/(\.[A-Za-z][\w-]{0,200}):\d+(?::\d+)?\b/g, "$1"],
  [/(\.[A-Za-z][\w-]{0,200})\(\d+(?:,\s*\d+)?\)/g, "$1"],
  [/\b(line|column|col|ln)\s+\d+\b/gi, "$1 <n>"],
  // 12ms, 1.5 s, (0.01s), 3 minutes
  [
    /\b\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds?|m|mins?|minutes?|h|hours?|\u00b5s|us|ns)\b/g,
    "<duration>",
  ],
  // pid 1234, PID: 1234, node[1234]
  [/\bpid\b[\s:=#]*\d+/gi, "pid <n>"],
  [/\b([A-Za-z][\w-]{0,200})\[\d{2,}\]/g, "$1[<n>]"],
  // long hex ids: hashes, chunk names, commit ids (with at least one digit and one letter)
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, "<hex>"],
];

/**
 * Reduces an error line to what identifies the error: ANSI colours, timestamps, durations,
 * line and column numbers, hex addresses and ids, UUIDs, temporary and home directories and
 * process ids are replaced by placeholders, spaces collapsed, letters lower-cased. The same
 * error from two runs gives the same text; the message, error type and file name stay.
 *
 * @param line - one error line.
 * @returns the normalised line.
 */
export function normalizeErrorLine(line: string): string {
  let normalized = line;
  for (const [pattern, replacement] of VOLATILE_PARTS) {
    normalized = normalized.replace(pattern, replacement);
  }
  return normalized.replace(/\s+/g, " ").trim().toLowerCase();
}

/**
 * Removes ANSI escape sequences from a text.
 *
 * @param text - terminal output.
 * @returns the text without colours or cursor moves.
 */
export function stripAnsi(text: string): string {
  return text.replace(ANSI_SEQUENCE, "");
}

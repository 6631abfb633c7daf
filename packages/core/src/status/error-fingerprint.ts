import { fnv1aHash } from "./fnv-hash.js";
import { normalizeErrorLine, stripAnsi } from "./normalize-error.js";
import { splitLines, type TextLine } from "./text-lines.js";

/** The error an answer ends on, identified. */
export interface ErrorFingerprint {
  /** 16 hex digits, equal for the same error across runs and different for different errors. */
  readonly fingerprint: string;
  /** The error as written (colours removed), for people: its first line, and how many more. */
  readonly summary: string;
}

/** One kind of error line: how to recognise it, and whether prose may contain it. */
interface ErrorLineKind {
  readonly kind: string;
  readonly pattern: RegExp;
  /** `false` for shapes that only count outside prose (in code blocks or tool output). */
  readonly inProse: boolean;
}

/** The error lines recognised, most specific first; the first that matches names the kind. */
const ERROR_LINE_KINDS: readonly ErrorLineKind[] = [
  { kind: "pytest", pattern: /^(?:FAILED|ERROR)\s+\S+?(?:::\S+|\.py)\b/, inProse: true },
  { kind: "typescript", pattern: /\berror TS\d+:/, inProse: true },
  { kind: "npm", pattern: /^npm (?:ERR!|error)\s/, inProse: true },
  { kind: "compiler", pattern: /^\S+:\d+(?::\d+)?:\s*(?:fatal error|error):\s/, inProse: true },
  // a tool's diagnostic, GNU style: `Link: error: undefined symbol _main`, `ld.lld: error: …`,
  // `clang: fatal error: …`, MSVC's `LINK : fatal error LNK1104: …`
  {
    kind: "tool",
    pattern: /^[A-Za-z][\w.+-]{0,63} ?: (?:fatal )?error(?:\[\w+\]| [A-Z]{1,8}\d{1,8})?:\s+\S/,
    inProse: true,
  },
  // `error: …`, `error[E0308]: …`, git's `fatal: …`, also `Fatal: …` and `FATAL: …`
  {
    kind: "error",
    pattern: /^(?:error|fatal|Fatal|FATAL)(?: error)?(?:\[\w+\])?:\s+\S/,
    inProse: true,
  },
  { kind: "panic", pattern: /^panic:\s+\S/, inProse: true },
  { kind: "go-test", pattern: /^--- FAIL:\s+\S/, inProse: true },
  { kind: "test-file", pattern: /^FAIL\s+\S/, inProse: true },
  {
    kind: "exception",
    pattern:
      /^(?:Uncaught\s+|Unhandled\s+(?:rejection\s+)?)?(?:[A-Za-z_$][\w$]*\.)*(?:[A-Z][\w$]*)?(?:Error|Exception)(?:\s*\[[^\]]+\])?:\s+\S/,
    inProse: true,
  },
  { kind: "exception", pattern: /^[A-Z][\w$]*(?:Error|Exception)\s+\S/, inProse: false },
  { kind: "log", pattern: /^(?:\[ERROR\]|ERROR:|ERROR\s+-)\s*\S/, inProse: true },
  { kind: "api", pattern: /^API Error\b:?\s*\S/, inProse: true },
];

/** What sits before an error on its line and is not part of it. */
const LINE_PREFIX =
  /^\s*(?:\[(?=[^\]]{0,100}\])[^\]]*\d{1,2}:\d{2}[^\]]*\]\s*)?(?:\d{4}-\d{2}-\d{2}[T ][\d:.,]+Z?\s+)?(?:(?:[>|\u00d7\u2717\u2718\u25cf\u276f\u203a\u23bf]|E(?=\s{2,}))\s*)*/;

/**
 * How much of a line is matched against the error shapes, which all start at the line's start
 * (`error TS…` aside): a longer line is not searched to its end for each shape.
 */
const MAX_MATCHED_LENGTH = 1000;

/** Python's traceback header: the error is the first unindented line after the frames. */
const TRACEBACK = /^Traceback \(most recent call last\):/;

/** Errors that only say that something else failed; a more specific one is preferred. */
const WRAPPER =
  /\b(?:command failed|process completed with exit code|exited with (?:exit )?code|exit (?:status|code):? \d+|elifecycle|test failed\. see above)/i;

/** npm's lines that every npm failure prints. */
const NPM_NOISE =
  /complete log of this run|_logs[\\/]|^npm (?:ERR!|error)\s*$|this is probably not a problem with npm|additional logging output above|^npm (?:ERR!|error) (?:errno|code ELIFECYCLE|Exit status|Failed at the)/i;

/** One error line found, with its kind and where it is. */
interface ErrorLine {
  readonly kind: string;
  readonly text: string;
  readonly index: number;
}

/** The error lines of a text, in order. */
function findErrorLines(text: string, isProse: (offset: number) => boolean): ErrorLine[] {
  const found: ErrorLine[] = [];
  let inTraceback = false;
  splitLines(text).forEach((line: TextLine, index) => {
    const content = stripAnsi(line.text).replace(LINE_PREFIX, "").trimEnd();
    if (TRACEBACK.test(content)) {
      inTraceback = true;
      return;
    }
    if (inTraceback) {
      if (content === "" || /^\s/.test(stripAnsi(line.text))) return;
      inTraceback = false;
      found.push({ kind: "python", text: content, index });
      return;
    }
    if (content === "") return;
    const offset = line.start + line.text.length - line.text.trimStart().length;
    const head =
      content.length > MAX_MATCHED_LENGTH ? content.slice(0, MAX_MATCHED_LENGTH) : content;
    const kind = ERROR_LINE_KINDS.find(
      (candidate) => candidate.pattern.test(head) && (candidate.inProse || !isProse(offset)),
    );
    if (kind !== undefined) found.push({ kind: kind.kind, text: content, index });
  });
  return found;
}

/** Consecutive error lines of the same kind, which one failure prints together. */
function groupErrorLines(lines: readonly ErrorLine[]): ErrorLine[][] {
  const groups: ErrorLine[][] = [];
  for (const line of lines) {
    const group = groups[groups.length - 1];
    const previous = group?.[group.length - 1];
    if (group !== undefined && previous?.kind === line.kind && previous.index + 1 === line.index) {
      group.push(line);
    } else {
      groups.push([line]);
    }
  }
  return groups;
}

/** The lines of a group that identify it: npm's boilerplate removed when something is left. */
function identifyingLines(group: readonly ErrorLine[]): string[] {
  const texts = group.map((line) => line.text);
  const specific = texts.filter((text) => !NPM_NOISE.test(text));
  return specific.length > 0 ? specific : texts;
}

/**
 * Identifies the error an answer ends on: the last group of error lines in it (consecutive
 * lines of one kind, such as npm's `npm ERR!` lines or pytest's `FAILED` summary), preferring
 * a specific error to a wrapper that only says a command failed. Recognised: `Error: …`,
 * `TypeError: …` and other `…Error`/`…Exception` lines (also without `:` outside prose),
 * pytest `FAILED tests/x.py::test_y - …`, TypeScript `error TS2345: …`, compiler
 * `file:line:col: error: …`, a tool's `name: error: …` (`Link: error: undefined symbol _main`,
 * `clang: fatal error: …`), `error[E0308]: …`, `fatal: …` (also `Fatal: …`, `FATAL: …`),
 * `panic: …`, Go `--- FAIL: …`, `FAIL file`, `[ERROR] …`, `npm ERR! …`, and the last line of a
 * Python traceback. Each shape starts its line (after a timestamp or marker), so prose that
 * mentions a "fatal" mistake is no error.
 *
 * The fingerprint hashes the kind and the group's lines, each normalised by
 * `normalizeErrorLine`, sorted and deduplicated, so the order of failures does not matter.
 *
 * @param text - the answer, its status blocks blanked.
 * @param isProse - whether an offset of the text is the agent's prose; shapes that are only
 *   errors outside prose use it. By default nothing is prose.
 * @returns the fingerprint and summary, or `null` when the text has no error line.
 */
export function findErrorFingerprint(
  text: string,
  isProse: (offset: number) => boolean = () => false,
): ErrorFingerprint | null {
  const groups = groupErrorLines(findErrorLines(text, isProse));
  const specific = groups.filter((group) => !group.every((line) => WRAPPER.test(line.text)));
  const chosen = specific[specific.length - 1] ?? groups[groups.length - 1];
  const kind = chosen?.[0]?.kind;
  if (chosen === undefined || kind === undefined) return null;
  const lines = identifyingLines(chosen);
  const normalized = [...new Set(lines.map(normalizeErrorLine))].sort();
  const first = (lines[0] ?? "").trim();
  const summary =
    (first.length > 200 ? `${first.slice(0, 199)}\u2026` : first) +
    (lines.length > 1 ? ` (and ${lines.length - 1} more)` : "");
  return { fingerprint: fnv1aHash(`${kind}\n${normalized.join("\n")}`), summary };
}

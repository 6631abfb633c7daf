import { type Document, isMap, LineCounter, parseDocument, visit } from "yaml";
import type { Diagnostic } from "../errors/diagnostic.js";
import { ConfigError } from "./config-error.js";
import { LoopConfigSchema } from "./config-schema.js";
import { describeValue } from "./describe-value.js";
import { isEmptyNode, locateKey } from "./locate-key.js";
import type { LoopConfig } from "./loop-config.js";
import { schemaProblems } from "./schema-issues.js";
import { yamlProblems } from "./yaml-problems.js";

/** Options of {@link parseConfig}. */
export interface ParseConfigOptions {
  /** The config's file name or path, used in error messages (`config.yaml:4:3 …`). */
  readonly file?: string | undefined;
}

/**
 * A line that is blank or a comment: spaces, then nothing or `#` and printable text (tabs
 * included). Stricter than YAML, which the full parse then judges.
 */
const COMMENT_LINE = /^ *(?:#[\t\x20-\x7e\xa0-\u2027\u202a-\ufefe\uff00-\uffff]*)?\r?$/;

/** Whether the YAML text holds only blank lines and comments: a document with no content. */
export function isCommentsOnly(text: string): boolean {
  return text.split("\n").every((line) => COMMENT_LINE.test(line));
}

/** Orders diagnostics by position, those without one last. */
function byPosition(left: Diagnostic, right: Diagnostic): number {
  const line = (left.line ?? Number.MAX_SAFE_INTEGER) - (right.line ?? Number.MAX_SAFE_INTEGER);
  return line !== 0 ? line : (left.column ?? 0) - (right.column ?? 0);
}

/**
 * Where the alias a failed conversion is about is: the first alias whose anchor is not set
 * before it, else (too many aliases) the first alias. `null` when the document has none.
 */
function aliasOffset(document: Document): number | null {
  let unresolved: number | null = null;
  let first: number | null = null;
  visit(document, {
    Alias(_key, node) {
      const offset = node.range?.[0] ?? null;
      first ??= offset;
      if (node.resolve(document) === undefined) {
        unresolved = offset;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return unresolved ?? first;
}

/** Converts the parsed document to plain values, reporting alias problems as a config error. */
function toPlainValue(
  document: Document,
  file: string | undefined,
  lineCounter: LineCounter,
): unknown {
  try {
    return document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = aliasOffset(document);
    const where = offset === null ? null : lineCounter.linePos(offset);
    const location = where === null ? {} : { line: where.line, column: where.col };
    throw new ConfigError({ issues: [{ message: `YAML error: ${message}`, ...location }], file });
  }
}

/**
 * Parses the text of `.claude/loop/config.yaml` into a complete config, defaults filled in.
 *
 * An empty or comments-only file gives the defaults. Every problem is reported, not just
 * the first, each with its key path and the line:column of the offending key or value:
 * YAML syntax errors, duplicate keys, a top level that is not a mapping, unknown keys (with
 * the nearest valid key suggested, also when the key belongs in another section) and
 * invalid values (with what would be valid).
 *
 * @param yamlText - the YAML source.
 * @param options - the file name to use in messages.
 * @returns the complete config.
 * @throws {ConfigError} listing every problem as `file:line:column key.path: message`.
 *
 * @example
 * ```ts
 * parseConfig("exit_policy:\n  min_completion_indicators: 3\n", { file: "config.yaml" });
 * // → { version: 1, exit_policy: { min_completion_indicators: 3, ... }, ... }
 * parseConfig("exit_policy:\n  min_completion_indicatorz: 3\n", { file: "config.yaml" });
 * // throws ConfigError: Invalid config (1 problem):
 * //   config.yaml:2:3 exit_policy.min_completion_indicatorz: unknown key
 * //   "min_completion_indicatorz" — did you mean "min_completion_indicators"?
 * ```
 */
export function parseConfig(yamlText: string, options?: ParseConfigOptions | null): LoopConfig {
  const file = options?.file;
  const text = yamlText.startsWith("\uFEFF") ? yamlText.slice(1) : yamlText;
  // `loop init` writes every setting commented out: such a file is read without the parser.
  if (isCommentsOnly(text)) return LoopConfigSchema.parse({});
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, logLevel: "error" });
  if (document.errors.length > 0) {
    throw new ConfigError({ issues: yamlProblems(document.errors, text, lineCounter), file });
  }
  if (document.contents === null || isEmptyNode(document.contents)) {
    return LoopConfigSchema.parse({});
  }
  const value = toPlainValue(document, file, lineCounter);
  const locate = (path: readonly (string | number)[], target: "key" | "value") =>
    position(lineCounter, locateKey(document, path, target));
  if (!isMap(document.contents)) {
    const message = `expected the config to be a mapping of settings (key: value), got ${describeValue(value)}`;
    throw new ConfigError({ issues: [{ message, ...locate([], "value") }], file });
  }
  const result = LoopConfigSchema.safeParse(value);
  if (result.success) return result.data;
  const issues = schemaProblems(result.error.issues)
    .map(({ path, message, target }) => ({ message, path, ...locate(path, target) }))
    .sort(byPosition);
  throw new ConfigError({ issues, file });
}

/** The 1-based line and column of an offset, or nothing when the offset is unknown. */
function position(
  lineCounter: LineCounter,
  offset: number | undefined,
): { line?: number; column?: number } {
  if (offset === undefined) return {};
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

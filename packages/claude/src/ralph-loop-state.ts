import { isMap, isScalar, LineCounter, type Pair, parseDocument, type Scalar } from "yaml";

/** The ralph-loop state file, `.claude/ralph-loop.local.md`, as read. */
export interface RalphLoopState {
  /** Whether the loop runs. */
  readonly active: boolean;
  /** The current iteration, 1 for the first. */
  readonly iteration: number;
  /** The Claude Code session the loop belongs to. */
  readonly sessionId: string;
  /** The safety net: the hook lets the session stop once `iteration >= maxIterations`. */
  readonly maxIterations: number;
  /** The prd.json, relative to the project directory (or absolute). */
  readonly prdPath: string;
  /** When the loop started, as written, or `null` when the file has no `started_at`. */
  readonly startedAt: string | null;
  /** The loop prompt: the body after the front matter, trimmed. */
  readonly prompt: string;
}

/** Something wrong with a state file, at a 1-based line. */
export interface RalphLoopStateProblem {
  readonly line: number;
  readonly message: string;
}

/** {@link parseRalphLoopState}'s answer: the state, or every problem found. */
export type RalphLoopStateResult =
  | { readonly ok: true; readonly state: RalphLoopState }
  | { readonly ok: false; readonly problems: readonly RalphLoopStateProblem[] };

/** The front matter's text, where it starts, and the body after its closing `---`. */
interface FrontMatter {
  readonly yaml: string;
  /** Offset of the YAML text in the file. */
  readonly offset: number;
  /** 0-based line of the YAML text's first line in the file. */
  readonly firstLine: number;
  readonly body: string;
}

function splitFrontMatter(text: string): FrontMatter | RalphLoopStateProblem {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const bom = text.length - source.length;
  const opening = /^---[ \t]*\r?\n/.exec(source);
  if (opening === null) {
    return { line: 1, message: "expected the front matter to open with '---' on the first line" };
  }
  const start = opening[0].length;
  const closing = /^---[ \t]*(?:\r?\n|$)/m;
  const rest = source.slice(start);
  const match = closing.exec(rest);
  if (match === null) {
    const lines = source.split(/\r?\n/).length;
    return { line: lines, message: "the front matter opened with '---' is never closed" };
  }
  return {
    yaml: rest.slice(0, match.index),
    offset: bom + start,
    firstLine: 1,
    body: rest.slice(match.index + match[0].length),
  };
}

/** The front matter's parsed YAML map, with where each key's value lies. */
interface ParsedFrontMatter {
  readonly values: ReadonlyMap<string, { readonly value: unknown; readonly line: number }>;
  /** Offsets of the `iteration` value's text in the file, when it is a plain scalar. */
  readonly iterationRange: readonly [number, number] | null;
}

function readFrontMatter(
  front: FrontMatter,
  problems: RalphLoopStateProblem[],
): ParsedFrontMatter | null {
  const lineCounter = new LineCounter();
  const document = parseDocument(front.yaml, { lineCounter, prettyErrors: false });
  const lineAt = (offset: number) => lineCounter.linePos(offset).line + front.firstLine;
  for (const error of document.errors) {
    problems.push({ line: lineAt(error.pos[0]), message: `invalid YAML: ${error.message}` });
  }
  if (document.errors.length > 0) return null;
  const contents = document.contents;
  if (contents === null) return { values: new Map(), iterationRange: null };
  if (!isMap(contents)) {
    problems.push({
      line: lineAt(contents.range?.[0] ?? 0),
      message: "the front matter must be a map of keys",
    });
    return null;
  }
  const values = new Map<string, { value: unknown; line: number }>();
  let iterationRange: [number, number] | null = null;
  for (const pair of contents.items as Pair<unknown, unknown>[]) {
    const key = isScalar(pair.key) ? pair.key.value : pair.key;
    const keyStart = isScalar(pair.key) ? (pair.key.range?.[0] ?? 0) : 0;
    if (typeof key !== "string") {
      problems.push({ line: lineAt(keyStart), message: "front matter keys must be strings" });
      continue;
    }
    const node = pair.value;
    const value = isScalar(node) ? node.value : node === null ? null : (node as object);
    const line = isScalar(node) && node.range ? lineAt(node.range[0]) : lineAt(keyStart);
    values.set(key, { value, line });
    if (key === "iteration" && isScalar(node) && node.range) {
      const scalar = node as Scalar;
      if (scalar.type === "PLAIN" && scalar.range) {
        iterationRange = [front.offset + scalar.range[0], front.offset + scalar.range[1]];
      }
    }
  }
  return { values, iterationRange };
}

function isCount(value: unknown, minimum: number): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= minimum;
}

/**
 * Reads the ralph-loop state file: YAML front matter (`active`, `iteration`, `session_id`,
 * `max_iterations`, `prd_path`, optional `started_at`) between `---` lines, then the loop
 * prompt as the body. Never throws: a bad file gives every problem found, with its line.
 *
 * @param text - the file's text.
 * @returns `{ ok: true, state }`, or `{ ok: false, problems }`.
 */
export function parseRalphLoopState(text: string): RalphLoopStateResult {
  const parsed = readState(text);
  return "state" in parsed
    ? { ok: true, state: parsed.state }
    : { ok: false, problems: parsed.problems };
}

function readState(
  text: string,
):
  | { readonly state: RalphLoopState; readonly iterationRange: readonly [number, number] | null }
  | { readonly problems: readonly RalphLoopStateProblem[] } {
  const front = splitFrontMatter(text);
  if ("line" in front) return { problems: [front] };
  const problems: RalphLoopStateProblem[] = [];
  const matter = readFrontMatter(front, problems);
  if (matter === null) return { problems };
  const lastFrontLine = front.firstLine + front.yaml.split(/\r?\n/).length;
  const field = (key: string, expected: string, check: (value: unknown) => boolean): unknown => {
    const entry = matter.values.get(key);
    if (entry === undefined) {
      problems.push({ line: lastFrontLine, message: `missing '${key}' (${expected})` });
      return undefined;
    }
    if (!check(entry.value)) {
      problems.push({ line: entry.line, message: `'${key}' must be ${expected}` });
      return undefined;
    }
    return entry.value;
  };
  const nonEmptyString = (value: unknown) => typeof value === "string" && value.trim() !== "";
  const active = field("active", "true or false", (value) => typeof value === "boolean");
  const iteration = field("iteration", "an integer of at least 0", (value) => isCount(value, 0));
  const sessionId = field("session_id", "a non-empty string", nonEmptyString);
  const maxIterations = field("max_iterations", "an integer of at least 1", (value) =>
    isCount(value, 1),
  );
  const prdPath = field("prd_path", "a non-empty string", nonEmptyString);
  const startedAtEntry = matter.values.get("started_at");
  let startedAt: string | null = null;
  if (startedAtEntry !== undefined) {
    if (typeof startedAtEntry.value === "string") startedAt = startedAtEntry.value;
    else problems.push({ line: startedAtEntry.line, message: "'started_at' must be a string" });
  }
  const prompt = front.body.trim();
  if (prompt === "") {
    problems.push({
      line: lastFrontLine + 1,
      message: "the loop prompt after the front matter is empty",
    });
  }
  if (problems.length > 0) return { problems };
  return {
    state: {
      active: active as boolean,
      iteration: iteration as number,
      sessionId: sessionId as string,
      maxIterations: maxIterations as number,
      prdPath: prdPath as string,
      startedAt,
      prompt,
    },
    iterationRange: matter.iterationRange,
  };
}

/**
 * The state file's text with `iteration` set to `iteration`, every other byte unchanged, or
 * `null` when the file is not a valid state file or its `iteration` is not a plain number.
 */
export function withRalphLoopIteration(text: string, iteration: number): string | null {
  if (!isCount(iteration, 0)) return null;
  const read = readState(text);
  if (!("state" in read) || read.iterationRange === null) return null;
  const [start, end] = read.iterationRange;
  return `${text.slice(0, start)}${iteration}${text.slice(end)}`;
}

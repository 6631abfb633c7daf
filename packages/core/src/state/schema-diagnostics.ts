import type { z } from "zod";
import { describeValue } from "../config/describe-value.js";
import type { Diagnostic } from "../errors/diagnostic.js";

/** The value at `path` inside `value`, or `undefined`. */
function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let current = value;
  for (const segment of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/** Converts a zod path (which may hold symbols) to key path segments. */
function keyPath(path: readonly PropertyKey[]): (string | number)[] {
  return path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment));
}

/** The message of one issue: the schema's own, or a readable one for an unknown discriminator. */
function issueMessage(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.code === "invalid_union" && "options" in issue && Array.isArray(issue.options)) {
    const found = valueAt(input, keyPath(issue.path));
    const options = issue.options.map(String).join(", ");
    return found === undefined
      ? `missing: expected one of ${options}`
      : `unknown value ${describeValue(found)}: expected one of ${options}`;
  }
  return issue.message;
}

/**
 * Converts zod's issues for a state or event schema into {@link Diagnostic}s, one per issue,
 * each with its key path (prefixed with `prefix`) and the schema's message.
 *
 * @param issues - `error.issues` of a failed `safeParse`.
 * @param input - the value that was parsed, to name unknown discriminator values.
 * @param prefix - path segments to put before every issue's path.
 */
export function schemaDiagnostics(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  prefix: readonly (string | number)[] = [],
): Diagnostic[] {
  return issues.map((issue) => ({
    message: issueMessage(issue, input),
    path: [...prefix, ...keyPath(issue.path)],
  }));
}

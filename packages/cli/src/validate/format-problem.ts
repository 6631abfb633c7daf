import type { ValidationProblem } from "./validation-problem.js";

/** How bad a reported problem is. */
export type ProblemSeverity = "error" | "warning";

/**
 * A problem as one line, the way compilers print them so that terminals and editors link to
 * the spot: `file:line:column: key.path: message`, with `warning: ` after the location for a
 * warning. The parts that are unknown are left out (`plan.md: not found`), and so is the key
 * path when the message starts with it already.
 *
 * @param problem - the problem.
 * @param severity - `error` (the default) or `warning`.
 */
export function formatProblem(
  problem: ValidationProblem,
  severity: ProblemSeverity = "error",
): string {
  let where = problem.file;
  if (problem.line !== null) {
    where += `:${problem.line}`;
    if (problem.column !== null) where += `:${problem.column}`;
  }
  const label = severity === "warning" ? "warning: " : "";
  const named = problem.keyPath === undefined || problem.message.startsWith(problem.keyPath);
  const keyPath = named ? "" : `${problem.keyPath}: `;
  return `${where}: ${label}${keyPath}${problem.message}`;
}

import type { ValidationReport } from "./validate-project.js";

function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * The last line of `loop validate`'s report: `valid: plan.md (4 tasks, 1 done),
 * .claude/loop/config.yaml`, or `not valid: 2 problems in plan.md, .claude/loop/config.yaml`,
 * with the number of warnings when there are any.
 *
 * @param report - what `validateProject` found.
 */
export function formatSummary(report: ValidationReport): string {
  const warnings =
    report.warnings.length === 0 ? "" : `; ${counted(report.warnings.length, "warning")}`;
  if (!report.valid) {
    const files = [...new Set(report.problems.map((problem) => problem.file))];
    return `not valid: ${counted(report.problems.length, "problem")} in ${files.join(", ")}${warnings}`;
  }
  const plan = `${report.plan.file}${report.plan.summary === null ? "" : ` (${report.plan.summary})`}`;
  const config = report.config.exists
    ? report.config.file
    : `no ${report.config.file} (the defaults apply)`;
  return `valid: ${plan}, ${config}${warnings}`;
}

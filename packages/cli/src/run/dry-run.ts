import type { IterationPreview } from "@loop/core";
import type { CommandLine } from "@loop/exec";
import { join } from "shlex";
import type { CliOutput } from "../cli-io.js";
import { formatDuration } from "../format/format-duration.js";
import type { Style } from "../style.js";

/** What `loop run --dry-run` reports. */
export interface DryRunReport {
  readonly planPath: string;
  readonly terminalId: string;
  readonly cwd: string;
  readonly preview: IterationPreview;
  /** The process the executor would start; `null` when the loop would stop first. */
  readonly command: CommandLine | null;
}

/** Stands for the prompt in the printed command line (`--json` gives the exact argv). */
const PROMPT_MARK = "<prompt>";

function exitDetail(preview: IterationPreview): string {
  const check = preview.decision.checks.find((item) => item.name === preview.decision.reason);
  return check?.detail ? ` (${check.detail})` : "";
}

/** `loop run --dry-run`: the next task, the exact prompt and command, as text. */
export function printDryRun(output: CliOutput, report: DryRunReport, style: Style): void {
  const { preview, command } = report;
  const lines = [
    style.bold("Dry run: nothing is run or written."),
    `plan:      ${report.planPath}`,
    `terminal:  ${report.terminalId}`,
  ];
  const request = preview.request;
  if (request === null || command === null) {
    lines.push(
      `next:      the loop would stop at once: ${preview.decision.reason}${exitDetail(preview)}`,
    );
    output.write(`${lines.join("\n")}\n`);
    return;
  }
  const attempts = preview.config.tasks.max_attempts;
  lines.push(
    `iteration: ${request.iteration}`,
    request.task === null
      ? "next:      a wrap-up iteration (every required task is done; verify and signal)"
      : `next:      ${request.task.id} ${request.task.title} (attempt ${request.attempt} of ${attempts})`,
  );
  if (preview.rateLimitWaitMs > 0) {
    lines.push(
      `wait:      ${formatDuration(preview.rateLimitWaitMs)} for the hourly call limit first`,
    );
  }
  const args = command.args.map((arg) => (arg === request.prompt ? PROMPT_MARK : arg));
  lines.push(
    `directory: ${report.cwd}`,
    `command:   ${join([command.command, ...args]).replaceAll(`'${PROMPT_MARK}'`, PROMPT_MARK)}`,
  );
  if (command.args.includes(request.prompt)) {
    lines.push(`           (${PROMPT_MARK} is one argument: the prompt below)`);
  }
  lines.push(
    command.stdin === null ? "stdin:     closed" : "stdin:     the prompt below",
    "",
    style.bold("prompt:"),
    request.prompt,
  );
  output.write(`${lines.join("\n")}\n`);
}

/** `loop run --dry-run --json`: the same as one JSON object. */
export function printDryRunJson(output: CliOutput, report: DryRunReport): void {
  const { preview, command } = report;
  const request = preview.request;
  output.write(
    `${JSON.stringify({
      plan: report.planPath,
      terminalId: report.terminalId,
      cwd: report.cwd,
      exit: preview.decision.exit ? preview.decision.reason : null,
      iteration: request?.iteration ?? null,
      task: request?.task ? { id: request.task.id, title: request.task.title } : null,
      attempt: request?.attempt ?? null,
      rateLimitWaitMs: preview.rateLimitWaitMs,
      prompt: request?.prompt ?? null,
      command,
    })}\n`,
  );
}

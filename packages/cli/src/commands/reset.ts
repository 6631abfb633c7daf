import { parseCommandArgs } from "../args.js";
import type { CliIo } from "../cli-io.js";
import { withCommandErrors } from "../command-errors.js";
import type { CommandModule } from "../command-module.js";
import { summarizeReset } from "../format/reset-summary.js";
import { PROJECT_OPTIONS, projectOptionsHelp, withLoopProject } from "../project.js";
import { RESET_PART_OPTIONS, RESET_PART_OPTIONS_HELP, resetPartsOf } from "../reset/reset-parts.js";
import { resetTerminal } from "../reset/reset-terminal.js";
import { createStyle } from "../style.js";

const HELP = `Usage: loop reset [options]

A way back from a safety stop: closes the circuit breaker, forgets the given-up tasks and
the tasks' attempts, sets the iteration count back to 0 and forgets the agent's session, then
prints what it reset (before → after). \`loop run\` then goes on where the plan stands.

It never touches the plan: checked tasks stay checked, open ones open. The cost spent is kept
unless --cost says otherwise. It takes the terminal's lock, so it is refused while a loop runs
on the terminal (the message names its pid). \`loop run --reset\` resets everything, then runs.

Options:
${RESET_PART_OPTIONS_HELP}
      --json               What was reset as one JSON object: { terminalId, parts, before,
                           after } (null parts when there is no state)
${projectOptionsHelp({ indent: 6, column: 27 })}
  -h, --help               Show this help

Examples:
  loop reset                       # after circuit_open, max_iterations, no_runnable_tasks
  loop reset --breaker             # only close the circuit breaker
  loop reset --failed              # try the given-up tasks again
  loop reset --all --cost          # everything, the cost counted from $0 too
`;

const OPTIONS = {
  ...PROJECT_OPTIONS,
  ...RESET_PART_OPTIONS,
  json: { type: "boolean" },
} as const;

async function reset(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs("reset", args, OPTIONS, 0);
  const parts = resetPartsOf(values);
  return withLoopProject("reset", io, values, async (project, config) => {
    const style = createStyle(io.stderr, io.env);
    const warn = (message: string) =>
      io.stderr.write(`${style.yellow(`loop reset: ${message}`)}\n`);
    const done = await resetTerminal(project, config, { parts, now: Date.now(), warn });
    if (values.json === true) {
      const report =
        done === null
          ? { terminalId: project.terminalId, parts: null, before: null, after: null }
          : {
              terminalId: project.terminalId,
              parts: done.parts,
              before: done.before,
              after: done.after,
            };
      io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return 0;
    }
    if (done === null) {
      io.stdout.write(
        `Nothing to reset: terminal ${project.terminalId} has no loop state in ${project.backend.where}.\n`,
      );
      return 0;
    }
    io.stdout.write(`Reset terminal ${project.terminalId}: ${summarizeReset(done)}.\n`);
    io.stdout.write("The plan is unchanged; `loop run` goes on from here.\n");
    return 0;
  });
}

/** `loop reset`: the way back from a safety stop (breaker, given-up tasks, counters, session). */
export const resetCommand: CommandModule = {
  help: HELP,
  run: (args, io) => withCommandErrors("reset", io, () => reset(args, io)),
};

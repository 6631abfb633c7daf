import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ProcessRun, runProcess } from "../support/run-process.js";

// Helpers of the CLI end-to-end tests: they spawn the built binary, as a user runs it.
// `pnpm test` builds first; run `pnpm --filter @loop/cli build` before running these alone.

/** The built `loop` binary. */
export const LOOP_BIN = fileURLToPath(new URL("../../packages/cli/dist/loop.js", import.meta.url));
/** The fake `claude` of the executor tests. */
export const FAKE_CLAUDE = fileURLToPath(new URL("../fixtures/fake-claude.mjs", import.meta.url));

/**
 * The README tour's stand-in agent: it checks the box of the task its prompt names and ends
 * with a RALPH_STATUS block (EXIT_SIGNAL true once no open task is left).
 */
export const DEMO_AGENT = fileURLToPath(
  new URL("../../examples/cli-tour/demo-agent.mjs", import.meta.url),
);

/** A two-task plan, as a user's `plan.md` is. */
export const TWO_TASK_PLAN = `# Plan

## Tasks
- [ ] TASK-001 Write the parser
- [ ] TASK-002 Write the printer
`;

/** What a finished `loop` process left. */
export type CliRun = ProcessRun;

/** A throwaway project folder with its own HOME and state root. */
export interface TestProject {
  /** The project folder (the command's working directory). */
  readonly dir: string;
  /** The state root (`LOOP_STATE_DIR`). */
  readonly stateDir: string;
  /** A clean environment for the CLI: PATH, HOME, LOOP_STATE_DIR, a fixed terminal id, NO_COLOR. */
  readonly env: Record<string, string>;
  /** Runs `loop <args>` in the project and waits for it to exit. */
  run(args: readonly string[], options?: RunOptions): Promise<CliRun>;
  /** Deletes the folder. */
  remove(): Promise<void>;
}

/** Options of {@link TestProject.run}. */
export interface RunOptions {
  /** Text written to standard input, which is then closed. */
  readonly input?: string;
  /** Variables added to (or, with `undefined`, removed from) the project's environment. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Kills the process after this many milliseconds (a test safety net). Default 60 s. */
  readonly timeoutMs?: number;
}

/** Starts `loop <args>` and waits for its exit, collecting its output. */
export function runCliProcess(
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  options: RunOptions = {},
): Promise<CliRun> {
  return runProcess(process.execPath, [LOOP_BIN, ...args], {
    cwd,
    env,
    input: options.input ?? "",
    timeoutMs: options.timeoutMs ?? 60_000,
  });
}

/** Makes a throwaway project folder with its own HOME and state root. */
export async function createTestProject(): Promise<TestProject> {
  const dir = await mkdtemp(join(tmpdir(), "loop-cli-"));
  const stateDir = join(dir, ".state");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: dir,
    LOOP_STATE_DIR: stateDir,
    LOOP_TERMINAL_ID: "test-terminal",
    NO_COLOR: "1",
  };
  return {
    dir,
    stateDir,
    env,
    run: (args, options = {}) => {
      const merged: Record<string, string | undefined> = { ...env, ...options.env };
      return runCliProcess(args, dir, merged, options);
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

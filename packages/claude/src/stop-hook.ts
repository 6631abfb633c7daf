import { isAbsolute, join } from "node:path";
import {
  type Concern,
  extractUserConcerns,
  type Prd,
  type PrdStory,
  parseClaudeTranscript,
  parsePrd,
  storyDependenciesMet,
} from "@loop/core";
import { parseRalphLoopState, withRalphLoopIteration } from "./ralph-loop-state.js";

/** The JSON Claude Code gives a Stop hook on stdin. */
export interface StopHookInput {
  readonly session_id: string;
  readonly transcript_path?: string | null | undefined;
  /** `true` when the session already continues because of a Stop hook; the loop's cap is `max_iterations`. */
  readonly stop_hook_active?: boolean | undefined;
  /** The project directory the hook runs in. */
  readonly cwd: string;
  readonly hook_event_name?: string | undefined;
}

/** The file access {@link handleStopHook} needs, and its settings. */
export interface StopHookOptions {
  /** The file's text, or `null` when it does not exist. */
  readonly readFile: (path: string) => Promise<string | null>;
  readonly writeFile: (path: string, text: string) => Promise<void>;
  /** The state file, relative to `cwd` (or absolute). Default `.claude/ralph-loop.local.md`. */
  readonly statePath?: string | undefined;
  /** How many of the transcript's last turns are read for user concerns. Default 10. */
  readonly lookbackTurns?: number | undefined;
}

/** What the Stop hook decided. */
export type StopHookResult =
  | { readonly decision: "allow"; readonly stderr?: string }
  | {
      readonly decision: "block";
      /** What Claude is told to do next: the loop prompt, the next story, open concerns. */
      readonly reason: string;
      /** The state file's new text, with `iteration` advanced by one. */
      readonly stateText: string;
      readonly stderr?: string;
    };

/** Where the ralph-loop skill keeps its state file. */
export const DEFAULT_RALPH_LOOP_STATE_PATH = ".claude/ralph-loop.local.md";

function resolvePath(cwd: string, path: string): string {
  return isAbsolute(path) ? path : join(cwd, path);
}

function allow(stderr?: string): StopHookResult {
  return stderr === undefined ? { decision: "allow" } : { decision: "allow", stderr };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The first failing story whose dependencies all pass, or `null`. */
function nextStory(prd: Prd): PrdStory | null {
  return prd.stories.find((story) => !story.passes && storyDependenciesMet(prd, story.id)) ?? null;
}

function describeStory(story: PrdStory): string {
  const lines = [`Next story: ${story.id} — ${story.title}`];
  if (story.description !== null) lines.push(story.description);
  if (story.acceptanceCriteria.length > 0) {
    lines.push("Acceptance criteria:", ...story.acceptanceCriteria.map((item) => `- ${item}`));
  }
  if (story.verification !== null) lines.push(`Verification: ${story.verification}`);
  return lines.join("\n");
}

function describeConcerns(concerns: readonly Concern[]): string {
  return [
    "Unresolved concerns the user raised:",
    ...concerns.map((concern) => `- (${concern.kind}) ${concern.text}`),
  ].join("\n");
}

async function readConcerns(
  input: StopHookInput,
  options: StopHookOptions,
): Promise<{ concerns: Concern[]; stderr?: string }> {
  const path = input.transcript_path;
  if (typeof path !== "string" || path === "") return { concerns: [] };
  try {
    const text = await options.readFile(path);
    if (text === null) return { concerns: [] };
    const lookback = options.lookbackTurns;
    return {
      concerns: extractUserConcerns(
        parseClaudeTranscript(text),
        lookback === undefined ? null : { lookbackTurns: lookback },
      ),
    };
  } catch (error) {
    return { concerns: [], stderr: `ralph loop: transcript not read: ${errorMessage(error)}` };
  }
}

/**
 * The ralph loop's Claude Code Stop hook: keep the session going while prd.json has failing
 * stories. It allows the stop when there is no state file, the file is malformed (reason on
 * stderr), the loop is inactive, the state belongs to another session, `max_iterations` is
 * reached, prd.json cannot be read or parsed, or every story passes. Otherwise it blocks with
 * the loop prompt, the next eligible story and the user's unresolved concerns from the
 * transcript, and writes the state back with `iteration` advanced by one (only that value
 * changes in the file).
 *
 * @param input - the hook's JSON from stdin.
 * @param options - file access, the state path and the concern lookback.
 * @returns the decision; pass it to {@link toHookOutput} for stdout.
 */
export async function handleStopHook(
  input: StopHookInput,
  options: StopHookOptions,
): Promise<StopHookResult> {
  const statePath = resolvePath(input.cwd, options.statePath ?? DEFAULT_RALPH_LOOP_STATE_PATH);
  const stateText = await options.readFile(statePath);
  if (stateText === null) return allow();
  const parsed = parseRalphLoopState(stateText);
  if (!parsed.ok) {
    const problems = parsed.problems.map((problem) => `  line ${problem.line}: ${problem.message}`);
    return allow(`ralph loop: ${statePath} is malformed; allowing stop.\n${problems.join("\n")}`);
  }
  const { state } = parsed;
  if (!state.active) return allow();
  if (state.sessionId !== input.session_id) return allow();
  if (state.iteration >= state.maxIterations) {
    return allow(
      `ralph loop: max_iterations (${state.maxIterations}) reached at iteration ${state.iteration}; allowing stop.`,
    );
  }
  const prdPath = resolvePath(input.cwd, state.prdPath);
  let prd: Prd;
  try {
    const prdText = await options.readFile(prdPath);
    if (prdText === null) return allow(`ralph loop: ${prdPath} not found; allowing stop.`);
    prd = parsePrd(prdText, { file: state.prdPath });
  } catch (error) {
    return allow(`ralph loop: ${prdPath} is invalid; allowing stop.\n${errorMessage(error)}`);
  }
  if (prd.stories.every((story) => story.passes)) return allow();
  const next = nextStory(prd);
  const { concerns, stderr } = await readConcerns(input, options);
  const iteration = state.iteration + 1;
  const newState = withRalphLoopIteration(stateText, iteration);
  if (newState === null) {
    return allow(`ralph loop: cannot advance 'iteration' in ${statePath}; allowing stop.`);
  }
  const sections = [
    state.prompt,
    `Ralph loop iteration ${iteration} of ${state.maxIterations}.`,
    next === null
      ? "No failing story has all its dependencies passing: check prd.json's dependencies."
      : describeStory(next),
  ];
  if (concerns.length > 0) sections.push(describeConcerns(concerns));
  await options.writeFile(statePath, newState);
  const reason = sections.join("\n\n");
  return stderr === undefined
    ? { decision: "block", reason, stateText: newState }
    : { decision: "block", reason, stateText: newState, stderr };
}

/**
 * What the hook prints on stdout for Claude Code: `{"decision":"block","reason":…}` to keep
 * the session going, or an empty string to let it stop (exit 0 with no output).
 */
export function toHookOutput(result: StopHookResult): string {
  return result.decision === "block"
    ? JSON.stringify({ decision: "block", reason: result.reason })
    : "";
}

import { isAbsolute, join } from "node:path";
import {
  type ChatTurn,
  type Concern,
  createInitialState,
  createStateManager,
  type ExitDecision,
  type ExitPolicy,
  extractUserConcerns,
  formatTimestamp,
  type LoopConfig,
  type LoopState,
  type Prd,
  type PrdStory,
  parseClaudeTranscript,
  parsePrd,
  resolveConfig,
  type StateManager,
  type StateStore,
  sanitizeTerminalId,
} from "@loop/core";
import {
  parseRalphLoopState,
  type RalphLoopState,
  withRalphLoopIteration,
} from "./ralph-loop-state.js";
import {
  blockCapOverride,
  consecutiveHookBlocks,
  STOP_HOOK_BLOCK_CAP_VARIABLE,
} from "./stop-hook-block-cap.js";
import { stopHookInputProblem } from "./stop-hook-input.js";
import { decideStop } from "./stop-hook-policy.js";
import { countEditedFiles, transcriptSince } from "./transcript-since.js";

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
  /**
   * The loop's config (`exit_policy`, `stop_when`, `circuit_breaker`, `tasks.max_attempts`,
   * `limits`). `limits.max_iterations` is always the state file's. Default: the defaults.
   */
  readonly config?: LoopConfig | undefined;
  /** A policy wrapping or replacing `shouldExit`, as `runLoop`'s `policy` option. */
  readonly policy?: ExitPolicy | undefined;
  /**
   * Where the loop state is kept across stops (attempts per story, the stop detectors' streaks,
   * the circuit breaker), under {@link stopHookTerminalId}. Without it, each stop is judged on
   * its own evidence and no story is ever given up.
   */
  readonly stateStore?: StateStore | undefined;
  /** The current time in epoch milliseconds (time limit, breaker cooldown). Default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /**
   * Claude Code's cap on Stop-hook blocks in a row, as the hook's environment has it
   * (`readStopHookBlockCap(process.env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP)`): once the turn has been
   * blocked that many times, Claude Code overrides the next block and ends the turn, so the hook
   * lets the stop through itself and says why. `null`: no cap. Default: no cap.
   */
  readonly blockCap?: number | null | undefined;
}

/** Claude Code's cap, when it ended (or was about to end) the loop's turn. */
export interface StopHookBlockCap {
  /** The cap: blocks in a row Claude Code honours. */
  readonly cap: number;
  /** `true`: Claude Code overrode a block (seen in the transcript); `false`: the hook stopped first. */
  readonly overridden: boolean;
}

/** What the Stop hook decided. */
export type StopHookResult =
  | {
      readonly decision: "allow";
      readonly stderr?: string;
      /** The policy's decision, when the policy was asked (not for an inactive loop). */
      readonly exit?: ExitDecision;
      /** Set when the stop is allowed because Claude Code's block cap would override a block. */
      readonly blockCap?: StopHookBlockCap;
    }
  | {
      readonly decision: "block";
      /** The policy's decision to go on, with every check behind it. */
      readonly exit: ExitDecision;
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

function allow(stderr?: string): { decision: "allow"; stderr?: string } {
  return stderr === undefined ? { decision: "allow" } : { decision: "allow", stderr };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function describeStory(story: PrdStory, attempt: number, maxAttempts: number): string {
  const lines = [`Next story: ${story.id} — ${story.title}`];
  if (attempt > 1) lines.push(`Attempt ${attempt} of ${maxAttempts}.`);
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

function describeFailed(failed: readonly string[]): string {
  return `Given up after ${failed.length === 1 ? "its attempts" : "their attempts"} (recorded in the loop state): ${failed.join(", ")}.`;
}

async function readTranscript(
  input: StopHookInput,
  options: StopHookOptions,
): Promise<{ text: string; stderr?: string }> {
  const path = input.transcript_path;
  if (typeof path !== "string" || path === "") return { text: "" };
  try {
    return { text: (await options.readFile(path)) ?? "" };
  } catch (error) {
    return { text: "", stderr: `ralph loop: transcript not read: ${errorMessage(error)}` };
  }
}

function lastAssistantText(turns: readonly ChatTurn[]): string {
  for (let index = turns.length - 1; index >= 0; index -= 1) {
    const turn = turns[index];
    if (turn?.role === "assistant") return turn.text;
  }
  return "";
}

/** The terminal id under which the hook keeps a session's loop state. */
export function stopHookTerminalId(sessionId: string): string {
  return sanitizeTerminalId(`ralph-${sessionId}`);
}

async function readPrevious(
  manager: StateManager | null,
  terminalId: string,
  notes: string[],
): Promise<LoopState | null> {
  if (manager === null) return null;
  try {
    const read = await manager.readState(terminalId);
    if (read.recovery !== null) {
      notes.push(`ralph loop: loop state recovered from ${read.recovery.from}.`);
    }
    return read.state;
  } catch (error) {
    notes.push(`ralph loop: loop state not read, starting fresh: ${errorMessage(error)}`);
    return null;
  }
}

async function writeLoopState(
  manager: StateManager | null,
  terminalId: string,
  state: LoopState,
  notes: string[],
): Promise<void> {
  if (manager === null) return;
  try {
    await manager.writeState(terminalId, state);
  } catch (error) {
    notes.push(`ralph loop: loop state not saved: ${errorMessage(error)}`);
  }
}

function exitMessage(decision: ExitDecision): string {
  const check = decision.checks.find((item) => item.name === decision.reason);
  const detail = check?.detail ? `: ${check.detail}` : "";
  return `ralph loop: stopping (${decision.reason ?? "policy"})${detail}; allowing stop.`;
}

/** What to do about the cap: let the configured iterations run. */
function raiseCapAdvice(ralph: RalphLoopState): string {
  return `set ${STOP_HOOK_BLOCK_CAP_VARIABLE} to ${ralph.maxIterations} or more in the "env" of .claude/settings.json (\`loop init --hook install\` writes it)`;
}

function capMessage(cap: number, ralph: RalphLoopState): string {
  return `ralph loop: Claude Code ends a turn after ${cap} Stop-hook blocks in a row (${STOP_HOOK_BLOCK_CAP_VARIABLE}=${cap}), so the loop stops at iteration ${ralph.iteration} of ${ralph.maxIterations} instead of being overridden; allowing stop. Say "continue" to go on; to let every iteration run, ${raiseCapAdvice(ralph)}.`;
}

function overrideMessage(blocks: number, ralph: RalphLoopState): string {
  return `ralph loop: Claude Code overrode this hook after ${blocks} blocks in a row (${STOP_HOOK_BLOCK_CAP_VARIABLE}) and ended the turn before the loop decided to stop; to let every iteration run, ${raiseCapAdvice(ralph)}.`;
}

function withNotes(notes: readonly string[], message?: string): string | undefined {
  const lines = message === undefined ? notes : [...notes, message];
  return lines.length === 0 ? undefined : lines.join("\n");
}

/**
 * The ralph loop's Claude Code Stop hook: keep the session going while prd.json has failing
 * stories, deciding with the same exit policy as `runLoop` (`shouldExit`, or `options.policy`).
 *
 * It allows the stop, doing nothing, when there is no state file (the agent deleted it to bail
 * out), the loop is inactive, or the state belongs to another session. It allows the stop, with
 * the reason on stderr, when the file is malformed, prd.json cannot be read or parsed, or the
 * policy says stop: every story passes (`prd_complete`), `max_iterations` (the state file's)
 * is reached, the agent's last answer says it is blocked or only asks questions, stories are
 * stuck on failed dependencies, the circuit breaker opened, the time limit passed…
 *
 * Otherwise it blocks with the loop prompt, the next runnable story (a story that made no
 * progress for `tasks.max_attempts` stops is given up and the loop moves on) and the user's
 * unresolved concerns from the transcript, and writes the state file back with `iteration`
 * advanced by one (only that value changes in the file). When Claude Code would override the
 * block — the turn has been blocked `options.blockCap` times in a row, its
 * `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` — it allows the stop instead, saying why and what to set; an
 * override it could not foresee (Claude Code's notice in the transcript) is reported at the next
 * stop. Both are recorded in the loop state (`stop_hook_block_cap`). With `options.stateStore`, the loop
 * state (attempts per story, streaks, the breaker) is kept across stops under
 * {@link stopHookTerminalId}; without one each stop is judged on its own evidence.
 *
 * @param input - the hook's JSON from stdin.
 * @param options - file access, the state path, the config, policy, store and clock.
 * @returns the decision; pass it to {@link toHookOutput} for stdout.
 */
export async function handleStopHook(
  input: StopHookInput,
  options: StopHookOptions,
): Promise<StopHookResult> {
  const problem = stopHookInputProblem(input);
  if (problem !== null) return allow(`ralph loop: ${problem}; allowing stop.`);
  const statePath = resolvePath(input.cwd, options.statePath ?? DEFAULT_RALPH_LOOP_STATE_PATH);
  const stateText = await options.readFile(statePath);
  if (stateText === null) return allow();
  const parsed = parseRalphLoopState(stateText);
  if (!parsed.ok) {
    const problems = parsed.problems.map((problem) => `  line ${problem.line}: ${problem.message}`);
    return allow(`ralph loop: ${statePath} is malformed; allowing stop.\n${problems.join("\n")}`);
  }
  const { state: ralph } = parsed;
  if (!ralph.active) return allow();
  if (ralph.sessionId !== input.session_id) return allow();
  const prdPath = resolvePath(input.cwd, ralph.prdPath);
  let prd: Prd;
  try {
    const prdText = await options.readFile(prdPath);
    if (prdText === null) return allow(`ralph loop: ${prdPath} not found; allowing stop.`);
    prd = parsePrd(prdText, { file: ralph.prdPath });
  } catch (error) {
    return allow(`ralph loop: ${prdPath} is invalid; allowing stop.\n${errorMessage(error)}`);
  }
  const notes: string[] = [];
  const transcript = await readTranscript(input, options);
  if (transcript.stderr !== undefined) notes.push(transcript.stderr);
  const now = (options.now ?? Date.now)();
  const manager = options.stateStore ? createStateManager(options.stateStore) : null;
  const terminalId = stopHookTerminalId(input.session_id);
  const previous = await readPrevious(manager, terminalId, notes);
  const config = options.config ?? resolveConfig();
  const turns = parseClaudeTranscript(transcript.text);
  const since = transcriptSince(transcript.text, previous?.transcript_lines ?? 0);
  const decided = decideStop({
    config,
    ralph,
    prd,
    answer: lastAssistantText(parseClaudeTranscript(since.recent)),
    filesChanged: countEditedFiles(since.recent),
    previous,
    initial: createInitialState({ planPath: ralph.prdPath, now: formatTimestamp(now) }),
    now,
    policy: options.policy,
  });
  const { decision, selection } = decided;
  const overridden = blockCapOverride(since.recent);
  if (overridden !== null) notes.push(overrideMessage(overridden, ralph));
  const cap = options.blockCap ?? null;
  const capped = !decision.exit && cap !== null && consecutiveHookBlocks(transcript.text) >= cap;
  const blockCap: StopHookBlockCap | null = capped
    ? { cap, overridden: false }
    : overridden === null
      ? null
      : { cap: Math.max(0, overridden - 1), overridden: true };
  const state: LoopState = {
    ...decided.state,
    session_id: input.session_id,
    transcript_lines: since.lines,
    ...(blockCap === null
      ? {}
      : {
          stop_hook_block_cap: {
            ...blockCap,
            iteration: ralph.iteration,
            at: formatTimestamp(now),
          },
        }),
  };
  await writeLoopState(manager, terminalId, state, notes);
  if (decision.exit) return { ...allow(withNotes(notes, exitMessage(decision))), exit: decision };
  if (capped) {
    return {
      ...allow(withNotes(notes, capMessage(cap, ralph))),
      exit: decision,
      blockCap: { cap, overridden: false },
    };
  }

  const iteration = ralph.iteration + 1;
  const newState = withRalphLoopIteration(stateText, iteration);
  if (newState === null) {
    return allow(
      withNotes(notes, `ralph loop: cannot advance 'iteration' in ${statePath}; allowing stop.`),
    );
  }
  const story =
    selection.kind === "task" ? prd.stories.find((item) => item.id === selection.task.id) : null;
  const sections = [
    ralph.prompt,
    `Ralph loop iteration ${iteration} of ${ralph.maxIterations}.`,
    story && selection.kind === "task"
      ? describeStory(story, selection.attempt, config.tasks.max_attempts)
      : "No story can run now: check prd.json's stories and dependencies.",
  ];
  if (state.failed_tasks.length > 0) sections.push(describeFailed(state.failed_tasks));
  const lookback = options.lookbackTurns;
  const concerns = extractUserConcerns(
    turns,
    lookback === undefined ? null : { lookbackTurns: lookback },
  );
  if (concerns.length > 0) sections.push(describeConcerns(concerns));
  await options.writeFile(statePath, newState);
  const reason = sections.join("\n\n");
  const stderr = withNotes(notes);
  return stderr === undefined
    ? { decision: "block", reason, stateText: newState, exit: decision }
    : { decision: "block", reason, stateText: newState, exit: decision, stderr };
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

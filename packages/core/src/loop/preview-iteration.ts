import type { LoopConfig } from "../config/loop-config.js";
import { PlanAnalyses } from "../plan/plan-analyses.js";
import { checkRateLimit } from "../policy/rate-limiter.js";
import { type ExitDecision, shouldExit } from "../policy/should-exit.js";
import { createInitialState } from "../state/initial-state.js";
import { formatTimestamp } from "../state/iso-timestamp.js";
import type { LoopState } from "../state/loop-state.js";
import { toRateWindow } from "../state/persisted-rate-window.js";
import { startRun } from "../state/start-run.js";
import { createStateManager } from "../state/state-manager.js";
import { checkPromptTemplate } from "./check-prompt-template.js";
import { completedEarlier } from "./completed-earlier.js";
import type { ExecutionRequest } from "./executor.js";
import { iterationRequest } from "./iteration-request.js";
import { loadLoopConfig } from "./load-loop-config.js";
import { readPlanView } from "./plan-view.js";
import { policyInputFor } from "./policy-input.js";
import { prepareIteration } from "./prepare-iteration.js";
import type { RunLoopOptions } from "./run-loop-options.js";
import type { SharedLimitsUsage } from "./shared-limits.js";
import { checkedUsage } from "./shared-limits-answers.js";
import { SharedLimitsError } from "./shared-limits-error.js";
import { systemClock } from "./system-clock.js";
import { UnsupportedSharedLimitsError } from "./unsupported-shared-limits-error.js";

/** What the next iteration of a loop would do, worked out without running or writing anything. */
export interface IterationPreview {
  /** The config the loop would run with. */
  readonly config: LoopConfig;
  /** The terminal's state as stored (`null`: the loop has not run on this terminal yet). */
  readonly state: LoopState | null;
  /** The exit policy's answer before the iteration; when `exit` is true, nothing would run. */
  readonly decision: ExitDecision;
  /** The request the executor would get; `null` when the loop would exit first. */
  readonly request: ExecutionRequest | null;
  /**
   * How long the loop would first wait for the hourly call limit, in milliseconds (0: none):
   * its own, or the shared limits' when theirs is used up.
   */
  readonly rateLimitWaitMs: number;
  /**
   * The shared limits' counts now (`RunLoopOptions.sharedLimits`), read without claiming;
   * `null` without shared limits, or when they cannot be read without claiming (no `readUsage`).
   */
  readonly sharedUsage: SharedLimitsUsage | null;
}

/**
 * Works out the next iteration of the loop `options` describe — the task, the exact prompt and
 * request the executor would get, or the exit the loop would take at once — without running the
 * executor, taking the lock or writing state, plan or logs (a `--dry-run`). The prompt is the
 * one a new run's first iteration sends. Unlike `runLoop`, it rejects with the plan's, config's,
 * template's or store's error.
 *
 * @param options - the same options as `runLoop`; the executor is never called.
 * @returns the preview.
 * @throws {PlanParseError | ConfigError | PromptTemplateError | StateStoreError | StateValidationError | SharedLimitsError | UnsupportedSharedLimitsError}
 *
 * @example
 * ```ts
 * const preview = await previewIteration({ plan, executor, store });
 * if (preview.request) console.log(preview.request.task?.id, preview.request.prompt);
 * else console.log("would exit:", preview.decision.reason);
 * ```
 */
export async function previewIteration(options: RunLoopOptions): Promise<IterationPreview> {
  const clock = options.clock ?? systemClock;
  const terminalId = options.terminalId ?? "default";
  checkPromptTemplate(options.prompt);
  const config = await loadLoopConfig(options);
  const stored = (await createStateManager(options.store).readState(terminalId)).state;
  const now = clock.now();
  const view = await readPlanView(options.plan, new PlanAnalyses(), config.plans.optional_headings);
  // The state as the run would start it (a new run record, its streaks and indicators reset).
  const started = startRun(
    stored ?? createInitialState({ planPath: options.plan.path, now: formatTimestamp(now) }),
    { runId: "preview", now: formatTimestamp(now) },
  );
  const { state, selection } = prepareIteration(started, view, config, now);
  const input = policyInputFor({
    config,
    view,
    state,
    selection,
    signals: null,
    verificationPassed: null,
    now,
    aborted: options.signal?.aborted === true,
  });
  const policyDecision = options.policy ? options.policy(input, shouldExit) : shouldExit(input);
  const sharedUsage = await readSharedUsage(options);
  const sharedBudgetSpent =
    sharedUsage !== null &&
    sharedUsage.maxCostUsd !== null &&
    sharedUsage.costUsd >= sharedUsage.maxCostUsd;
  const earlier =
    completedEarlier(stored, options.plan.path, view) ??
    (sharedBudgetSpent && !policyDecision.exit ? "budget_exhausted" : null);
  const decision: ExitDecision =
    earlier === null ? policyDecision : { ...policyDecision, exit: true, reason: earlier };
  const rate = checkRateLimit(
    toRateWindow(state.rate_window),
    now,
    config.limits.max_calls_per_hour,
  );
  const sharedFull =
    sharedUsage !== null &&
    sharedUsage.maxCallsPerHour !== null &&
    sharedUsage.callsThisHour >= sharedUsage.maxCallsPerHour;
  const rateLimitWaitMs = Math.max(
    rate.allowed ? 0 : rate.waitMs,
    sharedFull ? Math.max(0, sharedUsage.resetAt - now) : 0,
  );
  if (decision.exit) {
    return { config, state: stored, decision, request: null, rateLimitWaitMs, sharedUsage };
  }
  const task = selection.kind === "task" ? selection.task : null;
  const request = iterationRequest({
    options,
    config,
    view,
    task,
    iteration: state.loop_metadata.iterations + 1,
    attempt: selection.kind === "task" ? selection.attempt : 1,
    terminalId,
    sessionId: state.session_id ?? null,
    unmetRequirements: [],
    concerns: [],
    unansweredQuestions: [],
    previousFailure: null,
  });
  return { config, state: stored, decision, request, rateLimitWaitMs, sharedUsage };
}

/** The shared limits' counts, read without claiming; `null` when there are none to read. */
async function readSharedUsage(options: RunLoopOptions): Promise<SharedLimitsUsage | null> {
  const shared = options.sharedLimits;
  if (shared === undefined) return null;
  const version = (shared as { specificationVersion?: unknown }).specificationVersion;
  if (version !== "v1") throw new UnsupportedSharedLimitsError({ specificationVersion: version });
  if (shared.readUsage === undefined) return null;
  let usage: unknown;
  try {
    usage = await shared.readUsage.call(shared, { signal: options.signal });
  } catch (error) {
    throw new SharedLimitsError({
      message: `The shared limits "${shared.name}" could not be read: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
  return checkedUsage(usage, shared.name, "readUsage");
}

import * as z from "zod";
import { EXIT_REASONS, type ExitReason } from "../policy/exit-reasons.js";
import { type AgentReport, AgentReportSchema } from "../state/agent-report.js";
import { type LoopState, LoopStateSchema } from "../state/loop-state.js";
import { RESET_PARTS, type ResetPart, type ResetSnapshot } from "../state/reset-state.js";
import {
  amountField,
  booleanField,
  choiceField,
  countField,
  expected,
  idField,
  idListField,
  nullableChoiceField,
  nullableIdField,
  sectionField,
  textField,
  timestampField,
} from "../state/state-fields.js";
import { type UsageLimitRecord, UsageLimitRecordSchema } from "../state/usage-limit-record.js";

/** `iteration_start` (seed): an iteration begins. */
export interface IterationStartPayload {
  /** The iteration's number, from 1 over the loop's life. */
  readonly iteration: number;
  /** The task the iteration works on; `null` for a wrap-up iteration without a task. */
  readonly current_task_id: string | null;
  /** Tasks in the plan. */
  readonly total_tasks: number;
  /** Parallel runs: what holds the task's work (its git branch). Absent in a serial run. */
  readonly branch?: string | undefined;
}

/** One exit condition as `iteration_end` may record it (the policy's `ExitCheck` fits). */
export interface ExitCheckRecord {
  /** Which condition (`completion_indicators`, `max_iterations`…). */
  readonly name: string;
  /** `gate` (AND-ed) or `safety` (ends the loop on its own). */
  readonly kind: "gate" | "safety";
  /** The current value. */
  readonly value: number | boolean | string | null;
  /** What the value is compared with; `null` for a plain flag or a disabled condition. */
  readonly threshold: number | boolean | null;
  /** Whether the config enables the condition. */
  readonly required: boolean;
  /** Whether the condition holds (gate) or its limit is reached (safety). */
  readonly met: boolean;
  /** One line for people. */
  readonly detail: string;
}

/** `iteration_end` (seed): an iteration ended, with the exit decision. */
export interface IterationEndPayload {
  /** The iteration's number. */
  readonly iteration: number;
  /** Every task completed so far, the loop's whole list (as the seed's example shows). */
  readonly tasks_completed: readonly string[];
  /** Every task given up on so far. */
  readonly tasks_failed: readonly string[];
  /** Whether the loop stops after this iteration. */
  readonly should_exit: boolean;
  /** Why it stops; `null` when it goes on. */
  readonly exit_reason: ExitReason | null;
  /** Optional: every exit condition with its value, so a reader sees why the loop went on. */
  readonly checks?: readonly ExitCheckRecord[] | undefined;
}

/** `loop_exit` (seed): the loop stopped. */
export interface LoopExitPayload {
  /** Iterations run, over the loop's life (`loop_metadata.iterations`). */
  readonly total_iterations: number;
  /** Tasks completed, over the loop's life. */
  readonly total_tasks_completed: number;
  /** Why it stopped. */
  readonly exit_reason: ExitReason;
  /** The `loop_state` document at exit; `null` when there is none (a state error). */
  readonly final_state: LoopState | null;
  /** Optional, for `blocked` and `needs_input`: why the agent stopped and what it asked. */
  readonly agent_report?: AgentReport | undefined;
  /** Optional, for `usage_limit`: the limit that stopped the loop. */
  readonly usage_limit?: UsageLimitRecord | undefined;
  /**
   * Optional, for `budget_exhausted` when the shared limits' budget decided it: the fleet's
   * counts as they refused the call.
   */
  readonly shared_limits?: SharedUsageRecord | undefined;
}

/** The fleet's counts as `SharedLimits` answered them, in `loop_exit`. */
export interface SharedUsageRecord {
  /** Start of the window the calls were counted in, ISO 8601. */
  readonly window_start: string;
  /** Calls the fleet made in that window. */
  readonly calls_made: number;
  /** The fleet's hourly limit; `null`: none. */
  readonly max_calls_per_hour: number | null;
  /** What the fleet spent in total, in US dollars. */
  readonly cost_usd: number;
  /** The fleet's budget; `null`: none. */
  readonly max_cost_usd: number | null;
}

/** `error` (seed): an error during an iteration. */
export interface ErrorPayload {
  /** The error's class name (`PlanParseError`). */
  readonly error_type: string;
  /** The error's message. */
  readonly error_message: string;
  /** The iteration it happened in; 0 before the first iteration. */
  readonly iteration: number;
  /** The task being worked on; `null` when none. */
  readonly current_task_id: string | null;
  /** Optional stack trace, for debugging. */
  readonly traceback?: string | undefined;
}

/** `rate_limit_wait`: the hourly call limit is reached; the loop waits for the next window. */
export interface RateLimitWaitPayload {
  /** When the window resets, ISO 8601. */
  readonly reset_at: string;
  /** Calls made in the current window. */
  readonly calls_made: number;
  /** The limit (`limits.max_calls_per_hour`). */
  readonly max_calls_per_hour: number;
  /** How long the loop waits, in milliseconds. */
  readonly wait_ms: number;
  /**
   * Whose limit: `loop` (absent) — this loop's `limits.max_calls_per_hour`, counted in its
   * state; `fleet` — the shared limits' (`RunLoopOptions.sharedLimits`), and `calls_made` and
   * `max_calls_per_hour` are then the fleet's.
   */
  readonly scope?: "loop" | "fleet" | undefined;
}

/** `usage_limit_wait`: the agent hit its usage limit; the loop waits until it lifts. */
export interface UsageLimitWaitPayload {
  /** When the limit lifts, ISO 8601. */
  readonly reset_at: string;
  /** How long the loop waits, in milliseconds. */
  readonly wait_ms: number;
  /** The agent's message about the limit. */
  readonly message: string;
}

/** `task_failed`: a task used its attempts and was moved to `failed_tasks`. */
export interface TaskFailedPayload {
  /** The task. */
  readonly task_id: string;
  /** Attempts made. */
  readonly attempts: number;
  /** Why it failed: the last attempt's error or outcome. */
  readonly reason: string;
  /** Parallel runs: the branch its work is kept on, when it made any. */
  readonly kept_branch?: string | undefined;
}

/**
 * `task_integrated`: a parallel run brought a task's work onto the main line, then checked the
 * task's box in the plan.
 */
export interface TaskIntegratedPayload {
  /** The task. */
  readonly task_id: string;
  /** The iteration that finished it. */
  readonly iteration: number;
  /** The branch its work was on. */
  readonly branch: string;
  /** The commit the main line moved to; `null` when the task changed no file. */
  readonly commit: string | null;
  /** Files the integration changed on the main line. */
  readonly files_changed: number;
  /** Whether the merge agent resolved a conflict on the way. */
  readonly resolved: boolean;
}

/**
 * `merge_conflict`: a task's work conflicted with the main line. The merge was rolled back (the
 * main line is as it was), the work kept on `kept_branch`, and the task runs again from the new
 * main line (an attempt spent).
 */
export interface MergeConflictPayload {
  /** The task. */
  readonly task_id: string;
  /** The iteration that finished it. */
  readonly iteration: number;
  /** The conflicted files. */
  readonly files: readonly string[];
  /** Where its work is kept. */
  readonly kept_branch: string;
  /** Whether a merge agent tried to resolve the conflict first. */
  readonly merge_agent: boolean;
}

/** A task's working copy a killed run left, as `workspaces_recovered` records it. */
export interface KeptWorkRecord {
  /** The task. */
  readonly task_id: string;
  /** The branch its work is kept on. */
  readonly branch: string;
}

/** An integration a killed run was in the middle of, as `workspaces_recovered` records it. */
export interface RecoveredIntegrationRecord {
  /** The task being integrated. */
  readonly task_id: string;
  /** `completed`: the main line is at the merge; `rolled_back`: it is as it was before. */
  readonly outcome: "completed" | "rolled_back";
}

/**
 * `workspaces_recovered`: a parallel run started where an earlier one was killed and put right
 * what it left (only recorded when there was something).
 */
export interface WorkspacesRecoveredPayload {
  /** Tasks whose working copy was reopened to go on with. */
  readonly resumed: readonly string[];
  /** Working copies removed with their work kept. */
  readonly kept: readonly KeptWorkRecord[];
  /** Working copies removed that held no work. */
  readonly removed: readonly string[];
  /** Integrations completed or rolled back. */
  readonly integrations: readonly RecoveredIntegrationRecord[];
}

/**
 * `task_retried`: `loop branches retry` made a given-up (or unfinished) task run again from its
 * kept work: a working copy opened from `from_branch` (now on `branch`), which the next parallel
 * run resumes, and the task's given-up status and attempts forgotten in this terminal's state.
 */
export interface TaskRetriedPayload {
  /** The task. */
  readonly task_id: string;
  /** The kept branch its work came from (it is no longer kept). */
  readonly from_branch: string;
  /** The task's branch now, holding that work. */
  readonly branch: string;
  /** Whether the task was given up before (in `failed_tasks`). */
  readonly was_given_up: boolean;
  /** The attempts it had used (`task_attempts`), now 0. */
  readonly attempts: number;
}

/** `state_recovered`: `loop_state` was corrupt and was recovered (see `readState`). */
export interface StateRecoveredPayload {
  /** `backup`: restored from the backup; `fresh`: both versions were unusable, started anew. */
  readonly from: "backup" | "fresh";
  /** What was wrong with the current document, with its key path or line:column. */
  readonly problem: string;
}

/** The previous holder of a lock, as `lock_takeover` records it. */
export interface LockHolderRecord {
  /** Its process id. */
  readonly pid: number;
  /** Its host name. */
  readonly host: string;
  /** When it took the lock, ISO 8601. */
  readonly started_at: string;
}

/** `lock_takeover`: a stale lock (its process gone) was taken over. */
export interface LockTakeoverPayload {
  /** Who held the lock. */
  readonly previous_holder: LockHolderRecord;
}

/**
 * `previous_agent_stopped`: the previous run was killed while its agent ran, and the agent (or
 * part of its process group) was still running: it was stopped before this run started its own.
 */
export interface PreviousAgentStoppedPayload {
  /** The iteration that started the agent. */
  readonly iteration: number;
  /** The program it ran. */
  readonly command: string;
  /** Its process group id; `null` when the run was killed before it was recorded. */
  readonly pgid: number | null;
  /** When the iteration started it. */
  readonly started_at: string;
  /** The processes found still running, each proven the agent's, and stopped. */
  readonly pids: readonly number[];
  /** `SIGTERM`, or `SIGKILL` when SIGTERM did not end them within the grace period. */
  readonly signal: "SIGTERM" | "SIGKILL";
  /** Whether they are all gone (`false`: one could not be stopped; this run goes on). */
  readonly stopped: boolean;
}

/** A user concern as `verification` records it. */
export interface ConcernRecord {
  /** `issue`, `blocker` or `correction`. */
  readonly kind: "issue" | "blocker" | "correction";
  /** The sentence that raised it. */
  readonly text: string;
}

/** `verification`: practical verification ran. */
export interface VerificationPayload {
  /** Every requirement met and no concern unresolved. */
  readonly passed: boolean;
  /** The texts of the requirements not met. */
  readonly unmet: readonly string[];
  /** The unresolved user concerns. */
  readonly concerns: readonly ConcernRecord[];
}

/** `config_warning`: the config is valid but probably not what was meant (`checkConfig`). */
export interface ConfigWarningPayload {
  /** The warning's stable code (`EXIT_GATE_ALWAYS_OPEN`). */
  readonly code: string;
  /** Key path of the setting (`["exit_policy", "require_exit_signal"]`). */
  readonly path: readonly string[];
  /** What is wrong and how to fix it. */
  readonly message: string;
}

/**
 * `state_reset`: `loop reset` (or `loop run --reset`) reset parts of the state after a safety
 * stop (see `resetState`).
 */
export interface StateResetPayload {
  /** The parts reset: `breaker`, `failed`, `iterations`, `session`, `cost`. */
  readonly parts: readonly ResetPart[];
  /** The fields a reset may change, before it. */
  readonly before: ResetSnapshot;
  /** The same fields after it. */
  readonly after: ResetSnapshot;
}

/**
 * The payload of every decision event, by event name. Payload fields are snake_case, as
 * persisted in `decision.log`. Payloads may carry fields beyond these (kept when read).
 */
export interface DecisionEventPayloads {
  /** See {@link IterationStartPayload}. */
  readonly iteration_start: IterationStartPayload;
  /** See {@link IterationEndPayload}. */
  readonly iteration_end: IterationEndPayload;
  /** See {@link LoopExitPayload}. */
  readonly loop_exit: LoopExitPayload;
  /** See {@link ErrorPayload}. */
  readonly error: ErrorPayload;
  /** See {@link RateLimitWaitPayload}. */
  readonly rate_limit_wait: RateLimitWaitPayload;
  /** See {@link UsageLimitWaitPayload}. */
  readonly usage_limit_wait: UsageLimitWaitPayload;
  /** See {@link TaskFailedPayload}. */
  readonly task_failed: TaskFailedPayload;
  /** See {@link StateRecoveredPayload}. */
  readonly state_recovered: StateRecoveredPayload;
  /** See {@link LockTakeoverPayload}. */
  readonly lock_takeover: LockTakeoverPayload;
  /** See {@link PreviousAgentStoppedPayload}. */
  readonly previous_agent_stopped: PreviousAgentStoppedPayload;
  /** See {@link VerificationPayload}. */
  readonly verification: VerificationPayload;
  /** See {@link ConfigWarningPayload}. */
  readonly config_warning: ConfigWarningPayload;
  /** See {@link StateResetPayload}. */
  readonly state_reset: StateResetPayload;
  /** See {@link TaskIntegratedPayload}. */
  readonly task_integrated: TaskIntegratedPayload;
  /** See {@link MergeConflictPayload}. */
  readonly merge_conflict: MergeConflictPayload;
  /** See {@link WorkspacesRecoveredPayload}. */
  readonly workspaces_recovered: WorkspacesRecoveredPayload;
  /** See {@link TaskRetriedPayload}. */
  readonly task_retried: TaskRetriedPayload;
}

/** The name of a decision event. */
export type DecisionEventName = keyof DecisionEventPayloads;

/** An integer ≥ 1 (an iteration number, a limit). */
function positiveField(description: string) {
  const message = expected("an integer ≥ 1");
  return z.int(message).min(1, message).describe(description);
}

const exitReasonField = (description: string) => choiceField(EXIT_REASONS, description);

const exitCheckSchema = sectionField(
  {
    name: idField("Which condition."),
    kind: choiceField(["gate", "safety"], "gate or safety."),
    value: z
      .union(
        [z.number(), z.boolean(), z.string(), z.null()],
        expected("a number, boolean, string or null"),
      )
      .describe("The current value."),
    threshold: z
      .union([z.number(), z.boolean(), z.null()], expected("a number, boolean or null"))
      .describe("What the value is compared with."),
    required: booleanField("Whether the config enables the condition."),
    met: booleanField("Whether the condition holds or its limit is reached."),
    detail: textField("One line for people."),
  },
  "One exit condition.",
);

const resetSnapshotSchema = sectionField(
  {
    circuit_breaker: choiceField(["CLOSED", "HALF_OPEN", "OPEN"], "The breaker's state."),
    failed_tasks: idListField("The given-up tasks."),
    task_attempts: z
      .record(
        z.string(),
        countField("Attempts made."),
        expected("a mapping of task id to attempts"),
      )
      .describe("Attempts made per task."),
    iterations: countField("Iterations over every run."),
    session_id: nullableIdField("The agent's session id."),
    cost_usd: amountField("Cost over every run."),
  },
  "The fields a reset may change.",
);

/** The payload schema of every event: unknown payload fields are kept. */
export const PAYLOAD_SCHEMAS: {
  readonly [Name in DecisionEventName]: z.ZodType<DecisionEventPayloads[Name]>;
} = {
  iteration_start: sectionField(
    {
      iteration: positiveField("The iteration's number."),
      current_task_id: nullableIdField("The task the iteration works on."),
      total_tasks: countField("Tasks in the plan."),
      branch: textField("Parallel runs: the branch of the task's work.").optional(),
    },
    "iteration_start payload.",
  ),
  iteration_end: sectionField(
    {
      iteration: positiveField("The iteration's number."),
      tasks_completed: idListField("Every task completed so far."),
      tasks_failed: idListField("Every task given up on so far."),
      should_exit: booleanField("Whether the loop stops."),
      exit_reason: nullableChoiceField(EXIT_REASONS, "Why it stops; null when it goes on."),
      checks: z
        .array(exitCheckSchema, expected("a list of exit checks"))
        .optional()
        .describe("Every exit condition."),
    },
    "iteration_end payload.",
  ),
  loop_exit: sectionField(
    {
      total_iterations: countField("Iterations run."),
      total_tasks_completed: countField("Tasks completed."),
      exit_reason: exitReasonField("Why the loop stopped."),
      final_state: LoopStateSchema.nullable().describe("The loop_state document at exit."),
      agent_report: AgentReportSchema.optional(),
      usage_limit: UsageLimitRecordSchema.optional(),
      shared_limits: sectionField(
        {
          window_start: timestampField("Start of the window the calls were counted in."),
          calls_made: countField("Calls the fleet made in that window."),
          max_calls_per_hour: positiveField("The fleet's hourly limit.")
            .nullable()
            .describe("The fleet's hourly limit; null: none."),
          cost_usd: amountField("What the fleet spent in total."),
          max_cost_usd: amountField("The fleet's budget.")
            .nullable()
            .describe("The fleet's budget; null: none."),
        },
        "The fleet's counts when its budget stopped the loop.",
      ).optional(),
    },
    "loop_exit payload.",
  ),
  error: sectionField(
    {
      error_type: idField("The error's class name."),
      error_message: textField("The error's message."),
      iteration: countField("The iteration; 0 before the first."),
      current_task_id: nullableIdField("The task being worked on."),
      traceback: textField("Stack trace.").optional(),
    },
    "error payload.",
  ),
  rate_limit_wait: sectionField(
    {
      reset_at: timestampField("When the window resets."),
      calls_made: countField("Calls made in the window."),
      max_calls_per_hour: positiveField("The hourly limit."),
      wait_ms: countField("Milliseconds to wait."),
      scope: choiceField(["loop", "fleet"], "Whose limit: this loop's or the fleet's.").optional(),
    },
    "rate_limit_wait payload.",
  ),
  usage_limit_wait: sectionField(
    {
      reset_at: timestampField("When the usage limit lifts."),
      wait_ms: countField("Milliseconds to wait."),
      message: textField("The agent's message."),
    },
    "usage_limit_wait payload.",
  ),
  task_failed: sectionField(
    {
      task_id: idField("The task."),
      attempts: countField("Attempts made."),
      reason: textField("Why it failed."),
      kept_branch: textField("Parallel runs: the branch its work is kept on.").optional(),
    },
    "task_failed payload.",
  ),
  state_recovered: sectionField(
    {
      from: choiceField(["backup", "fresh"], "Where the state came from."),
      problem: textField("What was wrong with the current document."),
    },
    "state_recovered payload.",
  ),
  lock_takeover: sectionField(
    {
      previous_holder: sectionField(
        {
          pid: countField("Process id."),
          host: textField("Host name."),
          started_at: timestampField("When it took the lock."),
        },
        "The previous holder.",
      ),
    },
    "lock_takeover payload.",
  ),
  previous_agent_stopped: sectionField(
    {
      iteration: countField("The iteration that started the agent."),
      command: textField("The program it ran."),
      pgid: countField("Its process group id.")
        .nullable()
        .describe("Its process group id; null when it was not recorded."),
      started_at: timestampField("When the iteration started it."),
      pids: z
        .array(countField("A process id."), expected("a list of process ids"))
        .describe("The processes found still running, and stopped."),
      signal: choiceField(["SIGTERM", "SIGKILL"], "The strongest signal they needed."),
      stopped: booleanField("Whether they are all gone."),
    },
    "previous_agent_stopped payload.",
  ),
  verification: sectionField(
    {
      passed: booleanField("Whether verification passed."),
      unmet: z.array(textField("A requirement."), expected("a list of strings")),
      concerns: z.array(
        sectionField(
          {
            kind: choiceField(["issue", "blocker", "correction"], "The kind of concern."),
            text: textField("The sentence that raised it."),
          },
          "A user concern.",
        ),
        expected("a list of concerns"),
      ),
    },
    "verification payload.",
  ),
  config_warning: sectionField(
    {
      code: idField("The warning's code."),
      path: z.array(textField("A key."), expected("a list of keys")),
      message: textField("What is wrong."),
    },
    "config_warning payload.",
  ),
  state_reset: sectionField(
    {
      parts: z
        .array(choiceField(RESET_PARTS, "A part."), expected("a list of reset parts"))
        .describe("The parts reset."),
      before: resetSnapshotSchema,
      after: resetSnapshotSchema,
    },
    "state_reset payload.",
  ),
  task_integrated: sectionField(
    {
      task_id: idField("The task."),
      iteration: positiveField("The iteration that finished it."),
      branch: textField("The branch its work was on."),
      commit: nullableIdField("The commit the main line moved to; null when no file changed."),
      files_changed: countField("Files the integration changed."),
      resolved: booleanField("Whether the merge agent resolved a conflict."),
    },
    "task_integrated payload.",
  ),
  merge_conflict: sectionField(
    {
      task_id: idField("The task."),
      iteration: positiveField("The iteration that finished it."),
      files: z.array(textField("A file."), expected("a list of files")),
      kept_branch: textField("Where its work is kept."),
      merge_agent: booleanField("Whether a merge agent tried first."),
    },
    "merge_conflict payload.",
  ),
  workspaces_recovered: sectionField(
    {
      resumed: idListField("Tasks whose working copy was reopened."),
      kept: z.array(
        sectionField(
          { task_id: idField("The task."), branch: textField("Where its work is kept.") },
          "Kept work.",
        ),
        expected("a list of kept work"),
      ),
      removed: idListField("Tasks whose empty working copy was removed."),
      integrations: z.array(
        sectionField(
          {
            task_id: idField("The task."),
            outcome: choiceField(["completed", "rolled_back"], "What became of it."),
          },
          "A recovered integration.",
        ),
        expected("a list of integrations"),
      ),
    },
    "workspaces_recovered payload.",
  ),
  task_retried: sectionField(
    {
      task_id: idField("The task."),
      from_branch: textField("The kept branch its work came from."),
      branch: textField("The task's branch now, holding that work."),
      was_given_up: booleanField("Whether the task was given up before."),
      attempts: countField("The attempts it had used, now 0."),
    },
    "task_retried payload.",
  ),
};

import type { DeepReadonly } from "./deep-readonly.js";

/**
 * A complete config, every key filled in: what {@link parseConfig} and {@link resolveConfig}
 * return. Keys are snake_case, as in `.claude/loop/config.yaml`; docs/configuration.md
 * explains each one. `LoopConfig["limits"]` and the like name one section.
 */
export interface LoopConfig {
  /**
   * Version of the config format. Only 1 is valid.
   * @defaultValue 1
   */
  version: 1;
  /** How strictly the exit policy is enforced. */
  enforcement: {
    /**
     * Full policy enforcement. `false` = minimal policy: only `min_completion_indicators` and
     * `require_exit_signal` gate the exit; the other two flags are ignored.
     * @defaultValue true
     */
    enabled: boolean;
  };
  /** The exit gate: the loop exits only when every enabled condition holds (AND logic). */
  exit_policy: {
    /**
     * Completion indicators needed before the loop may exit: in effect a minimum number of
     * iterations. Always applies.
     * @defaultValue 2
     */
    min_completion_indicators: number;
    /**
     * Require `EXIT_SIGNAL: true` in the plan's RALPH_STATUS block. Always applies.
     * @defaultValue true
     */
    require_exit_signal: boolean;
    /**
     * Require every non-optional task to be checked. Full policy only.
     * @defaultValue true
     */
    require_all_tasks_complete: boolean;
    /**
     * Require the last verification run to pass. Full policy only.
     * @defaultValue false
     */
    require_verification_pass: boolean;
  };
  /** Practical verification of the plan's requirements before exit. */
  verification: {
    /**
     * Match completed tasks against the plan's requirements and look for user concerns.
     * @defaultValue true
     */
    enabled: boolean;
    /**
     * How many recent chat turns are searched for user concerns.
     * @defaultValue 10
     */
    lookback_turns: number;
    /**
     * Similarity (0 to 1) a completed task needs to satisfy a requirement.
     * @defaultValue 0.8
     */
    fuzzy_match_threshold: number;
  };
  /** Where plans are and how they are read. */
  plans: {
    /**
     * Plan file used when none is given.
     * @defaultValue "plan.md"
     */
    default_plan: string;
    /**
     * Let each terminal run its own plan instead of the shared default plan. `false`: a
     * project's terminals share one plan, so one loop runs in the project at a time (with
     * `RunLoopOptions.projectRoot`; the CLI passes it). `true`: a loop per terminal at once,
     * each on a plan of its own. Two loops on one plan file are refused either way.
     * @defaultValue false
     */
    allow_per_terminal_plan: boolean;
    /**
     * Headings whose tasks are optional: run when reached, never blocking completion.
     * @defaultValue ["Optional", "Future", "Future Enhancements", "Nice to Have"]
     */
    optional_headings: string[];
  };
  /** Where the loop writes its logs. */
  logging: {
    /**
     * File of decision events (JSON lines).
     * @defaultValue ".claude/loop/logs/decision.log"
     */
    decision_log: string;
    /**
     * File of verification runs (JSON lines).
     * @defaultValue ".claude/loop/logs/verifier.log"
     */
    verifier_log: string;
    /**
     * Folder of the per-iteration logs (the agent's raw output), one subfolder per terminal;
     * `loop logs` shows them.
     * @defaultValue ".claude/loop/logs/iterations"
     */
    iteration_logs: string;
    /**
     * How many iteration logs to keep per terminal; older ones are deleted. 0 writes none.
     * @defaultValue 50
     */
    iteration_logs_keep: number;
  };
  /** Where the loop's state is kept. */
  state: {
    /**
     * Where loops keep their state and decision events: `files` (the project's
     * `.claude/loop/state/`, or `--state-dir`) or a PostgreSQL URL
     * (`postgres://user@host:5432/database`) that a fleet shares. `--store` and `$LOOP_STORE`
     * override it.
     * @defaultValue "files"
     */
    store: string;
  };
  /** Limits every loop of a fleet holds together; each loop's own `limits` apply too. */
  fleet: {
    /**
     * Agent calls every loop of the fleet may make together per UTC clock hour (the loops
     * sharing the store's database, or every loop on this machine with files); `null`: none.
     * @defaultValue null
     */
    max_calls_per_hour: number | null;
    /**
     * US dollars every loop of the fleet may spend together; `null`: no fleet budget.
     * @defaultValue null
     */
    max_cost_usd: number | null;
    /**
     * The fleet whose counters the loop shares: loops with the same name count together.
     * @defaultValue "default"
     */
    name: string;
  };
  /** Safety limits that end the loop whatever the exit gate says. */
  limits: {
    /**
     * Stop after this many iterations.
     * @defaultValue 20
     */
    max_iterations: number;
    /**
     * Agent calls allowed per hour; beyond it the loop waits for the next hour.
     * @defaultValue 100
     */
    max_calls_per_hour: number;
    /**
     * Stop once the agent's reported cost reaches this many US dollars; `null`: no cap.
     * @defaultValue null
     */
    max_cost_usd: number | null;
    /**
     * Stop once the loop has run this many minutes; `null`: no cap.
     * @defaultValue null
     */
    max_duration_minutes: number | null;
    /**
     * Abort one agent run after this many minutes; the task counts as failed.
     * @defaultValue 15
     */
    iteration_timeout_minutes: number;
  };
  /** How tasks are retried. */
  tasks: {
    /**
     * Attempts per task before it is marked failed and skipped.
     * @defaultValue 3
     */
    max_attempts: number;
  };
  /** Detectors that stop a loop that has finished but does not say so. */
  stop_when: {
    /**
     * Stop after this many consecutive test-only iterations; 0 disables the detector.
     * @defaultValue 3
     */
    test_only_loops: number;
    /**
     * Stop after this many consecutive "done" responses in iterations that completed no task; 0
     * disables the detector.
     * @defaultValue 2
     */
    done_signals: number;
    /**
     * Stop with `needs_input` after this many consecutive iterations in which the agent only
     * asked questions (a headless agent's question is never answered); 0 disables the detector.
     * @defaultValue 3
     */
    question_loops: number;
  };
  /** Stops a loop that is stuck. */
  circuit_breaker: {
    /**
     * Open the circuit after this many consecutive iterations without progress.
     * @defaultValue 5
     */
    no_progress_loops: number;
    /**
     * Open the circuit after this many consecutive iterations with the same error.
     * @defaultValue 5
     */
    same_error_loops: number;
    /**
     * Open the circuit after this many consecutive iterations in which the agent was denied a tool.
     * @defaultValue 3
     */
    permission_denial_loops: number;
    /**
     * Minutes an open circuit stays open before a new run may try again.
     * @defaultValue 30
     */
    cooldown_minutes: number;
  };
  /** What to do when the agent's provider usage limit is reached. */
  usage_limit: {
    /**
     * `wait`: sleep until the limit resets, then continue; `exit`: stop the loop.
     * @defaultValue "wait"
     */
    on_limit: "wait" | "exit";
  };
}

/**
 * A config as written, or as an embedding program passes it to {@link resolveConfig}: every
 * section and every key optional (absent or `undefined` keys take their defaults), and
 * readonly at every depth, so frozen objects such as {@link DEFAULT_CONFIG} are accepted.
 */
export type LoopConfigInput = {
  readonly [Section in keyof LoopConfig]?:
    | (LoopConfig[Section] extends object
        ? {
            readonly [Key in keyof LoopConfig[Section]]?:
              | DeepReadonly<LoopConfig[Section][Key]>
              | undefined;
          }
        : LoopConfig[Section])
    | undefined;
};

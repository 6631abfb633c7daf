import * as z from "zod";
import { DEFAULT_OPTIONAL_HEADINGS } from "../plan/section-names.js";
import {
  booleanSetting,
  choiceSetting,
  integerSetting,
  numberSetting,
  optionalCapSetting,
  optionalCountCapSetting,
  settingsSection,
  storeSetting,
  textListSetting,
  textSetting,
  versionSetting,
} from "./config-fields.js";
import { describeValue } from "./describe-value.js";
import type { LoopConfig, LoopConfigInput } from "./loop-config.js";

/** The config's zod schema with its full inferred type (kept internal; see below). */
const loopConfigObject = z
  .strictObject(
    {
      version: versionSetting("Version of the config format. Only 1 is valid."),
      enforcement: settingsSection(
        {
          enabled: booleanSetting(
            true,
            "Full policy enforcement. false = minimal policy: only min_completion_indicators and require_exit_signal gate the exit; require_all_tasks_complete and require_verification_pass are ignored.",
          ),
        },
        "How strictly the exit policy is enforced.",
      ),
      exit_policy: settingsSection(
        {
          min_completion_indicators: integerSetting({
            minimum: 0,
            defaultValue: 2,
            description:
              "Completion indicators needed before the loop may exit. An iteration adds one when it completes a task, or when the agent signals completion without a contradicting EXIT_SIGNAL: false (see docs/policy.md); the count is kept in loop_state.json and mirrored in the plan's RALPH_STATUS. Prevents a premature exit on simple tasks. Always applies.",
          }),
          require_exit_signal: booleanSetting(
            true,
            "Require EXIT_SIGNAL: true in the plan's RALPH_STATUS block (the agent's explicit judgment that the plan is complete). Always applies.",
          ),
          require_all_tasks_complete: booleanSetting(
            true,
            "Require every non-optional task of the plan to be checked. Ignored when enforcement.enabled is false.",
          ),
          require_verification_pass: booleanSetting(
            false,
            "Require the last verification run to pass. Ignored when enforcement.enabled is false.",
          ),
        },
        "The exit gate: the loop exits only when every enabled condition holds (AND logic).",
      ),
      verification: settingsSection(
        {
          enabled: booleanSetting(
            true,
            "Practical verification: match completed tasks against the plan's requirements and look for unresolved user concerns before exiting.",
          ),
          lookback_turns: integerSetting({
            minimum: 0,
            defaultValue: 10,
            description: "How many recent chat turns are searched for user concerns.",
          }),
          fuzzy_match_threshold: numberSetting({
            minimum: 0,
            maximum: 1,
            defaultValue: 0.8,
            description:
              "Similarity (0.0 to 1.0) a completed task needs to satisfy a requirement. Higher is stricter.",
          }),
        },
        "Practical verification of the plan's requirements before exit.",
      ),
      plans: settingsSection(
        {
          default_plan: textSetting("plan.md", "Plan file used when none is given."),
          allow_per_terminal_plan: booleanSetting(
            false,
            "Let each terminal run its own plan instead of the shared default plan: false (the default) runs one loop in a project at a time; true runs a loop per terminal at once, each on a plan of its own (two loops on one plan file are always refused).",
          ),
          optional_headings: textListSetting(
            DEFAULT_OPTIONAL_HEADINGS,
            "Headings whose tasks are optional: run when reached, never blocking completion. Matched case-insensitively.",
          ),
        },
        "Where plans are and how they are read.",
      ),
      logging: settingsSection(
        {
          decision_log: textSetting(
            ".claude/loop/logs/decision.log",
            "File of decision events (JSON lines).",
          ),
          verifier_log: textSetting(
            ".claude/loop/logs/verifier.log",
            "File of verification runs (JSON lines).",
          ),
          iteration_logs: textSetting(
            ".claude/loop/logs/iterations",
            "Folder of the per-iteration logs (the agent's raw output), one subfolder per terminal; `loop logs` shows them.",
          ),
          iteration_logs_keep: integerSetting({
            minimum: 0,
            defaultValue: 50,
            description:
              "How many iteration logs to keep per terminal; older ones are deleted. 0 writes none.",
          }),
        },
        "Where the loop writes its logs.",
      ),
      state: settingsSection(
        {
          store: storeSetting(
            "Where loops keep their state and decision events: files (the project's .claude/loop/state/, or --state-dir) or a PostgreSQL URL, postgres://user@host:5432/database, that a fleet shares (docs/running-a-fleet.md). --store and $LOOP_STORE override it.",
          ),
        },
        "Where the loop's state is kept.",
      ),
      fleet: settingsSection(
        {
          max_calls_per_hour: optionalCountCapSetting(
            "Agent calls that every loop of the fleet may make together per UTC clock hour: the loops sharing the store's database (state.store), or every loop on this machine with files. null = no fleet limit. Give every loop of a fleet the same value.",
          ),
          max_cost_usd: optionalCapSetting(
            "US dollars that every loop of the fleet may spend together; once spent, each stops with budget_exhausted. null = no fleet budget. Give every loop of a fleet the same value.",
          ),
          name: textSetting(
            "default",
            "The fleet whose counters the loop shares: loops with the same name (in one database, or on one machine) count together.",
          ),
        },
        "Limits every loop of a fleet holds together (docs/shared-limits.md); each loop's own limits apply too.",
      ),
      limits: settingsSection(
        {
          max_iterations: integerSetting({
            minimum: 1,
            defaultValue: 20,
            description: "Stop after this many iterations, whatever the exit gate says.",
          }),
          max_calls_per_hour: integerSetting({
            minimum: 1,
            defaultValue: 100,
            description:
              "Agent calls allowed per hour; the loop waits for the next hour beyond it.",
          }),
          max_cost_usd: optionalCapSetting(
            "Stop once the agent's reported cost reaches this many US dollars. null = no cap.",
          ),
          max_duration_minutes: optionalCapSetting(
            "Stop once the loop has run this many minutes. null = no cap.",
          ),
          iteration_timeout_minutes: numberSetting({
            minimum: 0,
            exclusiveMinimum: true,
            defaultValue: 15,
            description: "Abort one agent run after this many minutes; the task counts as failed.",
          }),
        },
        "Safety limits that end the loop whatever the exit gate says.",
      ),
      tasks: settingsSection(
        {
          max_attempts: integerSetting({
            minimum: 1,
            defaultValue: 3,
            description: "Attempts per task before it is marked failed and skipped.",
          }),
        },
        "How tasks are retried.",
      ),
      stop_when: settingsSection(
        {
          test_only_loops: integerSetting({
            minimum: 0,
            defaultValue: 3,
            description:
              "Stop after this many consecutive iterations that only ran tests. 0 disables this detector.",
          }),
          done_signals: integerSetting({
            minimum: 0,
            defaultValue: 2,
            description:
              "Stop after this many consecutive responses that say the work is done while completing no task. 0 disables this detector.",
          }),
          question_loops: integerSetting({
            minimum: 0,
            defaultValue: 3,
            description:
              "Stop (needs_input) after this many consecutive iterations in which the agent only asked questions; nobody answers a headless agent. 0 disables this detector.",
          }),
        },
        "Detectors that stop a loop that has finished but does not say so.",
      ),
      circuit_breaker: settingsSection(
        {
          no_progress_loops: integerSetting({
            minimum: 1,
            defaultValue: 5,
            description:
              "Open the circuit (stop the loop) after this many consecutive iterations without progress.",
          }),
          same_error_loops: integerSetting({
            minimum: 1,
            defaultValue: 5,
            description:
              "Open the circuit after this many consecutive iterations failing with the same error.",
          }),
          permission_denial_loops: integerSetting({
            minimum: 1,
            defaultValue: 3,
            description:
              "Open the circuit after this many consecutive iterations in which the agent was denied a tool.",
          }),
          cooldown_minutes: numberSetting({
            minimum: 0,
            defaultValue: 30,
            description:
              "Minutes an open circuit stays open before a new run may try again (half-open).",
          }),
        },
        "Stops a loop that is stuck.",
      ),
      usage_limit: settingsSection(
        {
          on_limit: choiceSetting(
            ["wait", "exit"],
            "wait",
            "What to do when the agent reports a usage limit: wait = sleep until it resets, then continue; exit = stop the loop.",
          ),
        },
        "What to do when the agent's provider usage limit is reached.",
      ),
    },
    {
      error: (issue) =>
        issue.code === "invalid_type"
          ? `expected the config to be a mapping of settings (key: value), got ${describeValue(issue.input)}`
          : undefined,
    },
  )
  .describe("Configuration of the loop (.claude/loop/config.yaml).");

/**
 * The schema of `.claude/loop/config.yaml`: snake_case keys as in the file, every key
 * optional with a default, every mapping strict (an unknown key is an error).
 *
 * Parsing `{}` gives the full default config ({@link DEFAULT_CONFIG}). Use
 * {@link parseConfig} for YAML text (errors with line:column) and {@link resolveConfig}
 * for an object; both report problems as a {@link ConfigError}.
 */
export const LoopConfigSchema: z.ZodType<LoopConfig, LoopConfigInput> = loopConfigObject;

/**
 * Compile-time check that {@link LoopConfig} has no key the schema lacks; the annotation of
 * `LoopConfigSchema` checks the other direction. Not part of the package's API.
 */
export type LoopConfigMatchesSchema = MustExtend<LoopConfig, z.output<typeof loopConfigObject>>;

/** `Actual`, when it extends `Expected`; a type error otherwise. */
type MustExtend<Actual extends Expected, Expected> = Actual;

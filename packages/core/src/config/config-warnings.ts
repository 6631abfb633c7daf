import type { DeepReadonly } from "./deep-readonly.js";
import type { LoopConfig } from "./loop-config.js";

/** The stable code of each kind of {@link ConfigWarning}. */
export type ConfigWarningCode =
  | "BREAKER_OPENS_BEFORE_TASK_SKIP"
  | "VERIFICATION_REQUIRED_BUT_DISABLED"
  | "IGNORED_IN_MINIMAL_MODE"
  | "MAX_ITERATIONS_BELOW_MIN_INDICATORS"
  | "EXIT_GATE_ALWAYS_OPEN";

/** Every warning code, each listed once (the `Record` type makes the list complete). */
const warningCodeSet: Record<ConfigWarningCode, true> = {
  BREAKER_OPENS_BEFORE_TASK_SKIP: true,
  VERIFICATION_REQUIRED_BUT_DISABLED: true,
  IGNORED_IN_MINIMAL_MODE: true,
  MAX_ITERATIONS_BELOW_MIN_INDICATORS: true,
  EXIT_GATE_ALWAYS_OPEN: true,
};

/** Every code a {@link ConfigWarning} can have. Internal: the docs test reads it. */
export const CONFIG_WARNING_CODES = Object.keys(warningCodeSet) as ConfigWarningCode[];

/**
 * A config that is valid but probably not what was meant: settings that contradict each
 * other, or that have no effect. Compatible with `Diagnostic`, so
 * `formatDiagnostic(warning, file)` renders it.
 */
export interface ConfigWarning {
  /** Stable identifier of the kind of warning. */
  readonly code: ConfigWarningCode;
  /** Key path of the setting to look at. */
  readonly path: readonly string[];
  /** What is wrong, why it matters, and how to fix it. */
  readonly message: string;
}

/** A config as {@link checkConfig} reads it: complete, possibly frozen. */
type CheckedConfig = DeepReadonly<LoopConfig>;

/** One rule: the warnings it finds in a config (none when the config is fine). */
type ConfigRule = (config: CheckedConfig) => ConfigWarning[];

/** The no-progress breaker must leave room for a failing task to use all its attempts. */
const breakerBeforeTaskSkip: ConfigRule = (config) => {
  const breaker = config.circuit_breaker.no_progress_loops;
  const attempts = config.tasks.max_attempts;
  if (breaker > attempts) return [];
  return [
    {
      code: "BREAKER_OPENS_BEFORE_TASK_SKIP",
      path: ["circuit_breaker", "no_progress_loops"],
      message: `circuit_breaker.no_progress_loops (${breaker}) is not above tasks.max_attempts (${attempts}): a task that fails all its attempts without progress opens the circuit breaker before it is skipped, so the loop stops instead of moving on to the next task. Set no_progress_loops above ${attempts}.`,
    },
  ];
};

/** Requiring a verification pass while verification is off blocks every exit. */
const verificationRequiredButDisabled: ConfigRule = (config) => {
  if (!config.exit_policy.require_verification_pass || config.verification.enabled) return [];
  if (!config.enforcement.enabled) return [];
  return [
    {
      code: "VERIFICATION_REQUIRED_BUT_DISABLED",
      path: ["exit_policy", "require_verification_pass"],
      message:
        "exit_policy.require_verification_pass is true but verification.enabled is false: verification never runs, so the exit gate can never pass and the loop runs until a safety limit stops it. Enable verification or stop requiring it.",
    },
  ];
};

/** Flags of the full policy have no effect in minimal mode. */
const ignoredInMinimalMode: ConfigRule = (config) => {
  if (config.enforcement.enabled) return [];
  const flags = ["require_all_tasks_complete", "require_verification_pass"] as const;
  return flags
    .filter((flag) => config.exit_policy[flag])
    .map((flag) => ({
      code: "IGNORED_IN_MINIMAL_MODE",
      path: ["exit_policy", flag],
      message: `exit_policy.${flag} is true but enforcement.enabled is false: minimal mode ignores it, so the loop may exit without it. Set it to false to say so, or enable enforcement.`,
    }));
};

/** At most one completion indicator is counted per iteration. */
const maxIterationsBelowMinIndicators: ConfigRule = (config) => {
  const iterations = config.limits.max_iterations;
  const indicators = config.exit_policy.min_completion_indicators;
  if (iterations >= indicators) return [];
  return [
    {
      code: "MAX_ITERATIONS_BELOW_MIN_INDICATORS",
      path: ["limits", "max_iterations"],
      message: `limits.max_iterations (${iterations}) is below exit_policy.min_completion_indicators (${indicators}): at most one completion indicator is counted per iteration, so the exit gate cannot pass before the iteration limit stops the loop.`,
    },
  ];
};

/** A gate with no condition lets the loop exit at its first check. */
const exitGateAlwaysOpen: ConfigRule = (config) => {
  const policy = config.exit_policy;
  const fullPolicyConditions =
    config.enforcement.enabled &&
    (policy.require_all_tasks_complete || policy.require_verification_pass);
  if (policy.min_completion_indicators > 0 || policy.require_exit_signal || fullPolicyConditions) {
    return [];
  }
  return [
    {
      code: "EXIT_GATE_ALWAYS_OPEN",
      path: ["exit_policy"],
      message:
        "the exit gate has no condition (min_completion_indicators is 0, require_exit_signal is false and no task or verification requirement applies): the loop exits at the first check, whatever was done.",
    },
  ];
};

/** Every rule, in the order their warnings are reported. */
const rules: readonly ConfigRule[] = [
  breakerBeforeTaskSkip,
  verificationRequiredButDisabled,
  ignoredInMinimalMode,
  maxIterationsBelowMinIndicators,
  exitGateAlwaysOpen,
];

/**
 * Finds settings that are valid one by one but contradict each other or have no effect,
 * for example a circuit breaker that opens before a failing task is skipped. Pure: the
 * caller decides whether to print, log or ignore the warnings.
 *
 * @param config - a complete config, as {@link parseConfig} or {@link resolveConfig} return it.
 * @returns the warnings, empty for the default config.
 *
 * @example
 * ```ts
 * for (const warning of checkConfig(config)) console.warn(formatDiagnostic(warning, "config.yaml"));
 * ```
 */
export function checkConfig(config: DeepReadonly<LoopConfig>): ConfigWarning[] {
  return rules.flatMap((rule) => rule(config));
}

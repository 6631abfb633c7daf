import { ConfigError, checkConfig, type LoopConfig, parseConfig } from "@loop/core";
import { locateConfigKey } from "./locate-config-key.js";
import { problemFromDiagnostic, type ValidationProblem } from "./validation-problem.js";

/** What {@link checkConfigText} found. */
export interface ConfigCheck {
  /** The complete config, or `null` when it has problems. */
  readonly config: LoopConfig | null;
  /** Every problem: YAML syntax, unknown keys (with a suggestion), invalid values. */
  readonly problems: readonly ValidationProblem[];
  /** Settings that are valid but contradict each other (`checkConfig`), located when written. */
  readonly warnings: readonly ValidationProblem[];
}

/**
 * Checks a config's text: `parseConfig` for problems, then `checkConfig` for warnings. Pure.
 *
 * @param text - the YAML text.
 * @param file - the file, as messages show it.
 * @returns the config (when valid), its problems and its warnings.
 * @throws what `parseConfig` throws other than a `ConfigError` (a bug).
 */
export function checkConfigText(text: string, file: string): ConfigCheck {
  let config: LoopConfig;
  try {
    config = parseConfig(text, { file });
  } catch (error) {
    if (!ConfigError.isInstance(error)) throw error;
    const problems = error.issues.map((issue) => problemFromDiagnostic(file, issue));
    return { config: null, problems, warnings: [] };
  }
  const warnings = checkConfig(config).map((warning) => ({
    ...problemFromDiagnostic(file, { ...locateConfigKey(text, warning.path), ...warning }),
    code: warning.code,
  }));
  return { config, problems: [], warnings };
}

import { ConfigError } from "./config-error.js";
import { LoopConfigSchema } from "./config-schema.js";
import type { LoopConfig, LoopConfigInput } from "./loop-config.js";
import { schemaProblems } from "./schema-issues.js";

/**
 * Validates a config object, as an embedding program passes it, and fills in the
 * defaults. Returns a new, mutable object; the input is not changed.
 *
 * @param partial - the settings to override, in the file's snake_case shape. `undefined`
 *   or `null` gives the defaults.
 * @returns the complete config.
 * @throws {ConfigError} listing every problem with its key path (and, for an unknown
 *   key, the nearest valid key).
 *
 * @example
 * ```ts
 * const config = resolveConfig({ limits: { max_iterations: 50 } });
 * config.limits.max_iterations; // 50
 * config.exit_policy.min_completion_indicators; // 2 (default)
 * ```
 */
export function resolveConfig(partial?: LoopConfigInput | null): LoopConfig {
  const result = LoopConfigSchema.safeParse(partial ?? {});
  if (result.success) return result.data;
  const issues = schemaProblems(result.error.issues).map(({ path, message }) => ({
    path,
    message,
  }));
  throw new ConfigError({ issues });
}

import { LoopConfigSchema } from "./config-schema.js";
import type { DeepReadonly } from "./deep-readonly.js";
import type { LoopConfig } from "./loop-config.js";

/** Freezes `value` and everything it contains, in place. */
function deepFreeze<Value>(value: Value): DeepReadonly<Value> {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value as DeepReadonly<Value>;
}

/**
 * The default config: what an empty `config.yaml` (or `resolveConfig()`) gives. Deeply
 * frozen; {@link resolveConfig} returns a fresh, mutable copy with overrides applied.
 *
 * @example
 * ```ts
 * DEFAULT_CONFIG.exit_policy.min_completion_indicators; // 2
 * DEFAULT_CONFIG.limits.max_cost_usd; // null (no cap)
 * ```
 */
export const DEFAULT_CONFIG: DeepReadonly<LoopConfig> = deepFreeze(LoopConfigSchema.parse({}));

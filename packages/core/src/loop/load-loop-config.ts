import type { LoopConfig } from "../config/loop-config.js";
import { resolveConfig } from "../config/resolve-config.js";
import { mergeConfig } from "./merge-config.js";
import type { RunLoopOptions } from "./run-loop-options.js";

/** The last config resolved for a run's options, and what it was resolved from. */
interface Resolved {
  readonly loaded: unknown;
  readonly config: LoopConfig;
}

/** Per options object: the loop reloads its config before every iteration. */
const lastResolved = new WeakMap<object, Resolved>();

/**
 * The loop's config: `loadConfig`'s, then the `config` overrides, over the defaults. A loader
 * that gives the very object it gave last time (its file did not change), or no loader, gives
 * the config resolved last time: resolving checks the whole config against its schema, and the
 * loop asks before every iteration.
 */
export async function loadLoopConfig(
  options: Pick<RunLoopOptions, "loadConfig" | "config">,
): Promise<LoopConfig> {
  const loaded = (await options.loadConfig?.()) ?? null;
  const last = lastResolved.get(options);
  if (last !== undefined && last.loaded === loaded) return last.config;
  const config = resolveConfig(mergeConfig(loaded ?? {}, options.config ?? {}));
  lastResolved.set(options, { loaded, config });
  return config;
}

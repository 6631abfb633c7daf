import type { LoopConfig } from "../config/loop-config.js";
import { resolveConfig } from "../config/resolve-config.js";
import { mergeConfig } from "./merge-config.js";
import type { RunLoopOptions } from "./run-loop-options.js";

/** The loop's config: `loadConfig`'s, then the `config` overrides, over the defaults. */
export async function loadLoopConfig(
  options: Pick<RunLoopOptions, "loadConfig" | "config">,
): Promise<LoopConfig> {
  const loaded = (await options.loadConfig?.()) ?? {};
  return resolveConfig(mergeConfig(loaded, options.config ?? {}));
}

import { type LoopConfig, LoopError } from "@loop/core";
import type { CliIo } from "../cli-io.js";
import { errorMessage } from "../error-message.js";
import { homeFolder } from "../home-folder.js";
import type { Project } from "../project.js";
import type { ClosableSharedLimits } from "../store/project-backend.js";

/**
 * The fleet's shared limits of a run, from the config's `fleet` section: `null` when it sets
 * no limit; else the counters every loop of the fleet shares — a row of the store's database,
 * or for files this machine's `~/.loop/shared-limits/<fleet.name>.json`.
 *
 * @param project - the project (its store).
 * @param config - its config.
 * @param io - the CLI's environment (`HOME`).
 * @throws {LoopError} naming `fleet.name` when it cannot name the counters.
 */
export async function openFleetLimits(
  project: Project,
  config: LoopConfig,
  io: CliIo,
): Promise<ClosableSharedLimits | null> {
  const { max_calls_per_hour: maxCallsPerHour, max_cost_usd: maxCostUsd, name } = config.fleet;
  if (maxCallsPerHour === null && maxCostUsd === null) return null;
  const home = homeFolder(io);
  try {
    return await project.backend.openSharedLimits({ name, maxCallsPerHour, maxCostUsd, home });
  } catch (error) {
    if (LoopError.isInstance(error)) throw error;
    throw new LoopError({ message: `fleet.name ${JSON.stringify(name)}: ${errorMessage(error)}` });
  }
}

import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { AgentProcess, SurvivorReport } from "@loop/core";
import { DEFAULT_KILL_GRACE_MS } from "./command-executor-options.js";
import { SIGKILL_WAIT_MS, waitUntil } from "./process-group.js";
import {
  environmentHolds,
  hasProcTable,
  listProcesses,
  type ProcessEntry,
  processStartOfEntry,
  readProcess,
} from "./process-table.js";

/**
 * The environment variable that marks an agent's processes: `CommandExecutor` sets it to a new
 * random token for every process it starts, and the agent's descendants inherit it.
 */
export const AGENT_TOKEN_VARIABLE = "LOOP_AGENT_TOKEN";

/** A new random token for {@link AGENT_TOKEN_VARIABLE}: 128 bits, in hex. */
export function newAgentToken(): string {
  return randomBytes(16).toString("hex");
}

/** Options of {@link stopAgentSurvivors}. */
export interface StopAgentSurvivorsOptions {
  /** Milliseconds between SIGTERM and SIGKILL. Default: {@link DEFAULT_KILL_GRACE_MS}. */
  readonly graceMs?: number | undefined;
}

/**
 * The running processes proven to be the agent's: the group's leader when its pid has the start
 * time recorded (then every process of its group), and every process whose environment holds
 * the agent's token. This process itself is never one.
 */
function findSurvivors(agent: AgentProcess): ProcessEntry[] {
  const entries = listProcesses().filter((entry) => entry.pid !== process.pid);
  const leader =
    agent.pgid === undefined || agent.processStart === undefined
      ? undefined
      : entries.find(
          (entry) => entry.pid === agent.pgid && processStartOfEntry(entry) === agent.processStart,
        );
  const token = `${AGENT_TOKEN_VARIABLE}=${agent.token}`;
  return entries.filter(
    (entry) =>
      (leader !== undefined && entry.pgid === leader.pid) || environmentHolds(entry.pid, token),
  );
}

/** The processes found so far, each known by its pid and start time. */
class Survivors {
  readonly #running = new Map<number, string>();
  readonly #seen = new Set<number>();

  add(entries: readonly ProcessEntry[]): void {
    for (const entry of entries) {
      this.#running.set(entry.pid, entry.startTicks);
      this.#seen.add(entry.pid);
    }
  }

  /** Drops the ones that ended (or whose pid now names another process); whether any is left. */
  anyRunning(): boolean {
    for (const [pid, startTicks] of this.#running) {
      const entry = readProcess(pid);
      if (entry === null || entry.ended || entry.startTicks !== startTicks) {
        this.#running.delete(pid);
      }
    }
    return this.#running.size > 0;
  }

  /** Sends `signal` to each one still running, checked again just before. */
  signal(signal: NodeJS.Signals): void {
    for (const [pid, startTicks] of this.#running) {
      if (readProcess(pid)?.startTicks !== startTicks) continue;
      try {
        process.kill(pid, signal);
      } catch {
        // ESRCH: it ended meanwhile; EPERM: it cannot be stopped from here.
      }
    }
  }

  get pids(): number[] {
    return [...this.#seen].sort((left, right) => left - right);
  }
}

/**
 * Stops what is left of an agent process a previous run started (as `recordProcess` described
 * it): SIGTERM to each of its processes still running, SIGKILL after `graceMs` to those that
 * ignored it, then resolves once they are gone (or 2 s after SIGKILL).
 *
 * Only processes proven the agent's are signalled, so a pid given to an unrelated process since
 * is never hit: the group's leader only when its pid still has the start time recorded (with the
 * boot's id), the rest of its group only while that leader runs, and any other process only when
 * its environment holds the agent's random token. Each is checked again by its start time just
 * before every signal. Processes are read from Linux's `/proc`; elsewhere, and for an agent
 * recorded on another host, nothing is found and nothing is signalled.
 *
 * @param agent - the agent process as the state recorded it.
 * @param options - the grace period.
 * @returns the processes found and stopped, and how.
 */
export async function stopAgentSurvivors(
  agent: AgentProcess,
  options: StopAgentSurvivorsOptions = {},
): Promise<SurvivorReport> {
  if (!hasProcTable || agent.host !== hostname()) return { pids: [], signal: null, stopped: true };
  const survivors = new Survivors();
  survivors.add(findSurvivors(agent));
  if (!survivors.anyRunning()) return { pids: [], signal: null, stopped: true };
  survivors.signal("SIGTERM");
  const graceMs = options.graceMs ?? DEFAULT_KILL_GRACE_MS;
  await waitUntil(() => !survivors.anyRunning(), Date.now() + graceMs);
  // A process started during the grace period is found now.
  survivors.add(findSurvivors(agent));
  if (!survivors.anyRunning()) return { pids: survivors.pids, signal: "SIGTERM", stopped: true };
  survivors.signal("SIGKILL");
  const stopped = await waitUntil(() => !survivors.anyRunning(), Date.now() + SIGKILL_WAIT_MS);
  return { pids: survivors.pids, signal: "SIGKILL", stopped };
}

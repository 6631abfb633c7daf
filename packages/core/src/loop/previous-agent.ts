import type { PreviousAgentStoppedPayload } from "../observe/decision-event-payloads.js";
import type { AgentProcessRecord } from "../state/agent-process-record.js";
import type { LoopState } from "../state/loop-state.js";
import type { AgentProcess } from "./agent-process-info.js";
import type { Executor } from "./executor.js";

/** The state without its `agent_process` record (the same state when it has none). */
export function withoutAgentProcess(state: LoopState): LoopState {
  if (state.agent_process === undefined) return state;
  const { agent_process: _ended, ...rest } = state;
  return rest as LoopState;
}

/** A recorded agent process as the executor described it. */
function agentProcessOf(record: AgentProcessRecord): AgentProcess {
  return {
    token: record.token,
    command: record.command,
    host: record.host,
    pgid: record.pgid,
    processStart: record.process_start,
  };
}

/** What the state records of an agent process an iteration started. */
function agentProcessRecord(
  agent: AgentProcess,
  context: { readonly iteration: number; readonly startedAt: string },
): AgentProcessRecord {
  return {
    token: agent.token,
    command: agent.command,
    host: agent.host,
    iteration: context.iteration,
    started_at: context.startedAt,
    ...(agent.pgid === undefined ? {} : { pgid: agent.pgid }),
    ...(agent.processStart === undefined ? {} : { process_start: agent.processStart }),
  };
}

/**
 * Asks the executor to stop what is left of the agent process a previous run recorded and never
 * saw end (that run was killed while its agent ran).
 *
 * @param record - the state's `agent_process` as the run found it.
 * @param executor - the executor of this run; one without `stopSurvivors` stops nothing.
 * @returns the `previous_agent_stopped` payload, or `null` when nothing of it was running.
 */
export async function stopPreviousAgent(
  record: AgentProcessRecord,
  executor: Executor,
): Promise<PreviousAgentStoppedPayload | null> {
  if (executor.stopSurvivors === undefined) return null;
  const report = await executor.stopSurvivors(agentProcessOf(record));
  if (report.pids.length === 0) return null;
  return {
    iteration: record.iteration,
    command: record.command,
    pgid: record.pgid ?? null,
    started_at: record.started_at,
    pids: [...report.pids],
    signal: report.signal ?? "SIGTERM",
    stopped: report.stopped,
  };
}

/** How {@link AgentProcessRecorder} reads and saves the loop's state. */
export interface AgentProcessState {
  /** The loop's current state. */
  read(): LoopState;
  /**
   * Makes `state` the loop's state and saves it; with `durable: false`, a version a power loss
   * may lose (`WriteStateOptions.durable`).
   */
  write(state: LoopState, options?: { readonly durable?: boolean }): Promise<void>;
  /** The current time as an ISO 8601 timestamp, from the injected clock. */
  now(): string;
  /**
   * Where in the state the record goes: by default the state's `agent_process`; a parallel run's
   * worker keeps its agent's in its own entry of `workers`.
   */
  readonly place?: AgentProcessPlace | undefined;
}

/** Where an {@link AgentProcessRecorder} keeps its record in the state. */
export interface AgentProcessPlace {
  /** The record there now, if any. */
  read(state: LoopState): AgentProcessRecord | undefined;
  /** The state with `record` there. */
  write(state: LoopState, record: AgentProcessRecord): LoopState;
}

/** The default {@link AgentProcessPlace}: the state's `agent_process`. */
const topLevel: AgentProcessPlace = {
  read: (state) => state.agent_process,
  write: (state, record) => ({ ...state, agent_process: record }),
};

/**
 * Keeps the state's `agent_process` while an execution runs: the `recordProcess` the executor
 * gets saves each description it gives, one write after the other, and `settle` waits for
 * them once the execution is over.
 */
export class AgentProcessRecorder {
  #writes: Promise<void> = Promise.resolve();
  #failure: { readonly error: unknown } | null = null;
  #generation = 0;

  /** @param state - how to read and save the loop's state. */
  constructor(private readonly state: AgentProcessState) {}

  /**
   * The `recordProcess` of one iteration's execution. Once `settle` has run, it saves
   * nothing more (an executor abandoned after its signal cannot bring the record back).
   *
   * @param iteration - the iteration whose agent it records.
   */
  recordFor(iteration: number): (agent: AgentProcess) => Promise<void> {
    const generation = this.#generation;
    return (agent) => {
      const write = this.#writes.then(async () => {
        if (generation !== this.#generation) return;
        const current = this.state.read();
        const place = this.state.place ?? topLevel;
        const previous = place.read(current);
        const startedAt = previous?.token === agent.token ? previous.started_at : this.state.now();
        // The record of a started process (its group) need not survive a power loss, which
        // ends the process too: the one written before it started, durably, is enough then.
        await this.state.write(
          place.write(current, agentProcessRecord(agent, { iteration, startedAt })),
          { durable: previous?.token !== agent.token || agent.pgid === undefined },
        );
      });
      this.#writes = write.catch((error: unknown) => {
        this.#failure ??= { error };
      });
      return write;
    };
  }

  /**
   * Waits for the saves in flight once the execution is over, and ends the iteration's
   * `recordProcess`.
   *
   * @throws the first save that failed (a state store error: the loop stops on it).
   */
  async settle(): Promise<void> {
    this.#generation += 1;
    await this.#writes;
    const failure = this.#failure;
    this.#failure = null;
    if (failure !== null) throw failure.error;
  }
}

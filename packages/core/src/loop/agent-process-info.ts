/**
 * An agent process as an executor describes it to the engine (`ExecuteOptions.recordProcess`),
 * and as the engine hands it back to a later run's executor (`Executor.stopSurvivors`): enough
 * to find it again and to tell it from an unrelated process that was given the same pid.
 */
export interface AgentProcess {
  /**
   * A random marker the executor puts in the agent's environment: every process that inherits
   * the environment carries it, so it names the agent's processes and no one else's.
   */
  readonly token: string;
  /** The program started. */
  readonly command: string;
  /** The host it runs on. */
  readonly host: string;
  /** Its process group id; absent before the process is started. */
  readonly pgid?: number | undefined;
  /**
   * What identifies the group's leader beyond its pid (on Linux its start time since boot, with
   * the boot's id), in the executor's own format; absent where it cannot be read.
   */
  readonly processStart?: string | undefined;
}

/** What `Executor.stopSurvivors` did about a previous run's agent. */
export interface SurvivorReport {
  /** The processes found still running (proven the agent's), and signalled; empty when none. */
  readonly pids: readonly number[];
  /** The strongest signal they needed: `SIGKILL` when SIGTERM did not end them in time. */
  readonly signal: "SIGTERM" | "SIGKILL" | null;
  /** Whether every one of them is gone now. */
  readonly stopped: boolean;
}

/** What a finished child process left behind, as {@link CommandExecutorOptions.parse} sees it. */
export interface CommandRun {
  /** The kept tail of standard output, decoded as UTF-8. */
  readonly stdout: string;
  /** The kept tail of standard error, decoded as UTF-8. */
  readonly stderr: string;
  /** The exit code; `null` when a signal ended the process. */
  readonly exitCode: number | null;
  /** The signal that ended the process, if one did. */
  readonly signal: NodeJS.Signals | null;
  /** Whether `timeoutMs` stopped the run. */
  readonly timedOut: boolean;
  /** Whether `idleTimeoutMs` stopped the run. */
  readonly idle: boolean;
  /** Whether the engine's signal stopped the run. */
  readonly aborted: boolean;
}

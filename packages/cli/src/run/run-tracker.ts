import {
  checkRateLimit,
  createStateManager,
  type Loop,
  type LoopState,
  type RateWindow,
  recordCall,
  type StateStore,
  toRateWindow,
} from "@loop/core";

/** What a running loop is doing, as displays and `status.json` show it. */
export interface RunView {
  /** The iteration running or last run (0 before the first). */
  iteration: number;
  /** The task of that iteration: id and title; `null` for a wrap-up or before the first. */
  task: { readonly id: string; readonly title: string } | null;
  /** Tasks done, as the state records them. */
  tasksDone: number;
  /** Tasks in the plan (from the last `iteration_start`); `null` before the first. */
  tasksTotal: number | null;
  /** Agent calls made in the current hour. */
  callsThisHour: number;
  /** The hourly call limit. */
  maxCallsPerHour: number;
  /** Cost so far, over every run of this terminal, in US dollars. */
  costUsd: number;
  /**
   * Whether an agent run of this loop run reported its cost. When none did (an executor that
   * does not report cost), `costUsd` is only what earlier runs reported, and may be unknown.
   */
  costReported: boolean;
  /** When the running iteration started, epoch milliseconds; `null` between iterations. */
  iterationStartedAt: number | null;
  /** The wait in progress, `null` when not waiting. */
  wait: { readonly kind: "rate_limit" | "usage_limit"; readonly until: number } | null;
  /** What happened last: `executing`, `executed`, `failed`, `rate_limit_wait`, `usage_limit_wait`… */
  lastAction: string;
}

/** Options of {@link trackRun}. */
export interface TrackRunOptions {
  readonly store: StateStore;
  readonly terminalId: string;
  readonly maxCallsPerHour: number;
  /** The current time in epoch milliseconds. */
  readonly now: () => number;
  /** Called after the view changed, once it is up to date. */
  readonly onChange: (view: Readonly<RunView>) => void;
}

/**
 * Keeps a {@link RunView} of a loop up to date from its events: the counts (tasks done, calls,
 * cost) come from the state each `iteration-end` carries, and are read from the terminal's
 * state only at the start and after a wait; at an iteration's start the call it makes is
 * counted without reading the state.
 */
export function trackRun(loop: Loop, options: TrackRunOptions): Readonly<RunView> {
  const view: RunView = {
    iteration: 0,
    task: null,
    tasksDone: 0,
    tasksTotal: null,
    callsThisHour: 0,
    maxCallsPerHour: options.maxCallsPerHour,
    costUsd: 0,
    costReported: false,
    iterationStartedAt: null,
    wait: null,
    lastAction: "starting",
  };
  const manager = createStateManager(options.store);
  /**
   * The hourly call window as the state last read showed it (`null`: no call made yet), with
   * the calls started since; `undefined` until a read succeeded.
   */
  let window: RateWindow | null | undefined;
  const showCalls = (now: number) => {
    if (window === undefined) return;
    view.callsThisHour = checkRateLimit(window, now, options.maxCallsPerHour).window.callsMade;
  };
  /** Counts the states taken in, so a read that finishes after a newer state is dropped. */
  let taken = 0;
  const fromState = (state: LoopState | null) => {
    taken += 1;
    window = toRateWindow(state?.rate_window);
    if (state !== null) {
      view.tasksDone = state.completed_tasks.length;
      view.costUsd = state.cost_usd ?? 0;
    }
    showCalls(options.now());
  };
  const refresh = async () => {
    const before = taken;
    // Read-only: the running loop alone recovers its state, once, and logs it.
    const read = await manager.readState(options.terminalId, { repair: false }).then(
      (answer) => answer,
      () => null,
    );
    if (read !== null && taken === before) fromState(read.state);
    options.onChange(view);
  };
  loop.on("decision", (event) => {
    if (event.event === "iteration_start") view.tasksTotal = event.payload.total_tasks;
  });
  loop.on("iteration-start", ({ iteration, task }) => {
    view.iteration = iteration;
    view.task = task === null ? null : { id: task.id, title: task.title };
    view.wait = null;
    view.iterationStartedAt = options.now();
    view.lastAction = "executing";
    // The loop counts the call as the iteration starts, as recordCall does here: nothing else
    // the view shows changes until the iteration ends, so the state is not read again now.
    if (window === undefined) {
      void refresh();
      return;
    }
    window = recordCall(window, view.iterationStartedAt);
    showCalls(view.iterationStartedAt);
    options.onChange(view);
  });
  loop.on("iteration-end", ({ result, state }) => {
    view.lastAction = result.success ? "executed" : "failed";
    view.iterationStartedAt = null;
    if (result.costUsd !== undefined) view.costReported = true;
    // The event carries the state the loop just saved: nothing to read back.
    fromState(state);
    options.onChange(view);
  });
  loop.on("wait", ({ kind, until }) => {
    view.wait = { kind, until };
    view.iterationStartedAt = null;
    view.lastAction = `${kind}_wait`;
    void refresh();
  });
  void refresh();
  return view;
}

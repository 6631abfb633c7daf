import type { LoopConfig } from "@loop/core";
import type { CliIo } from "../cli-io.js";
import { CLI_EXIT_CODES } from "../exit-codes.js";
import { type LoopSnapshot, readLoopSnapshot } from "../loop-snapshot.js";
import type { Project } from "../project.js";
import { createStyle } from "../style.js";
import { findActiveWait } from "./active-wait.js";
import { createDebounce } from "./debounce.js";
import { createFileWatcher } from "./file-watcher.js";
import { renderMonitorFrame } from "./render-frame.js";
import { type KeyInput, openTerminalScreen, type TerminalOutput } from "./terminal-screen.js";
import { watchedFiles } from "./watched-files.js";

/** How long a burst of file changes must be quiet before the files are read again. */
export const REFRESH_DEBOUNCE_MS = 100;

/** Keys that quit: `q`, `Q` and Ctrl+C (byte 3 in raw mode). */
const QUIT_KEYS = new Set([0x71, 0x51, 0x03]);
/** Keys that re-read at once: `r`, `R`. */
const REFRESH_KEYS = new Set([0x72, 0x52]);
/** Signals that quit like `q`. */
const QUIT_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** Options of {@link runLiveMonitor}. */
export interface LiveMonitorOptions {
  /** The terminal (`stdout`), the keys (`stdin`) and the environment (`NO_COLOR`). */
  readonly io: CliIo;
  /** The project whose loop is shown. */
  readonly project: Project;
  /** Its config. */
  readonly config: LoopConfig;
  /** How many recent decision events to show (fewer when the terminal is short). */
  readonly eventCount: number;
}

/** An output that tells when the terminal is resized (a `tty.WriteStream` does). */
interface ResizableOutput extends TerminalOutput {
  /** Listens for resizes (SIGWINCH; `columns` and `rows` are updated first). */
  on?(event: "resize", listener: () => void): unknown;
  /** Stops listening. */
  off?(event: "resize", listener: () => void): unknown;
}

/**
 * Runs the live dashboard on a terminal until `q`, `Q`, Ctrl+C, SIGINT, SIGTERM or SIGHUP.
 *
 * - Takes over the terminal (alternate screen, hidden cursor, raw keys) and gives it back on
 *   every way out, also when reading or drawing throws.
 * - Refreshes on change: the folders of the state file, `status.json`, the decision log and the
 *   plan are watched (`fs.watch`); a burst of changes is debounced by
 *   {@link REFRESH_DEBOUNCE_MS}, then everything is read again with `readLoopSnapshot`.
 * - Timers: a re-read every `project.backend.refreshMs` (5 s for files, in case a watch missed
 *   a change; 2 s for a database, which has no file to watch), and
 *   while a countdown shows, a redraw (no read) at each second it changes. Nothing polls
 *   faster.
 * - Redraws at once when the terminal is resized; `r` re-reads at once.
 *
 * @returns 0 when the user quit; rejects with the error that stopped it otherwise.
 */
export function runLiveMonitor(options: LiveMonitorOptions): Promise<number> {
  const { io, project, config, eventCount } = options;
  const output: ResizableOutput = io.stdout;
  const input: KeyInput = io.stdin;
  const style = createStyle(output, io.env);

  return new Promise<number>((resolvePromise, rejectPromise) => {
    let snapshot: LoopSnapshot | null = null;
    let finished = false;
    let reading = false;
    let readAgain = false;
    let tick: NodeJS.Timeout | undefined;

    const screen = openTerminalScreen(output, input);
    const debounce = createDebounce(() => void refresh(), REFRESH_DEBOUNCE_MS);
    const watcher = createFileWatcher(() => debounce.trigger());
    const fallback = setInterval(() => void refresh(), project.backend.refreshMs);

    const finish = (error?: unknown) => {
      if (finished) return;
      finished = true;
      debounce.cancel();
      clearInterval(fallback);
      clearTimeout(tick);
      watcher.close();
      input.off("data", onKey);
      for (const signal of QUIT_SIGNALS) process.off(signal, onSignal);
      if (output.off !== undefined) output.off("resize", onResize);
      else process.off("SIGWINCH", onResize);
      input.pause();
      screen.restore();
      if (error === undefined) resolvePromise(CLI_EXIT_CODES.complete);
      else rejectPromise(error);
    };

    const scheduleTick = (shown: LoopSnapshot, now: number) => {
      clearTimeout(tick);
      tick = undefined;
      const wait = findActiveWait(shown, now);
      if (wait === null) return;
      // Just after the countdown's next whole second (it is rounded up).
      const delay = ((wait.until - now) % 1000) + 20;
      tick = setTimeout(render, delay);
    };

    function render() {
      if (finished) return;
      try {
        if (snapshot === null) {
          screen.draw([style.bold("loop monitor"), style.dim("reading the loop's files…")]);
          return;
        }
        const now = Date.now();
        const lines = renderMonitorFrame({
          snapshot,
          now,
          width: output.columns ?? 80,
          height: output.rows ?? 24,
          style,
          interactive: true,
        });
        screen.draw(lines);
        scheduleTick(snapshot, now);
      } catch (error) {
        finish(error);
      }
    }

    async function refresh() {
      if (finished) return;
      if (reading) {
        readAgain = true;
        return;
      }
      reading = true;
      try {
        do {
          readAgain = false;
          const next = await readLoopSnapshot(project, config, { eventCount });
          if (finished) return;
          snapshot = next;
          // A watch that just started may have missed a change made before it: read once more.
          if (watcher.watch(watchedFiles(project, config, next))) readAgain = true;
          render();
        } while (readAgain && !finished);
      } catch (error) {
        finish(error);
      } finally {
        reading = false;
      }
    }

    function onKey(chunk: Buffer | string) {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      if (bytes.some((byte) => QUIT_KEYS.has(byte))) finish();
      else if (bytes.some((byte) => REFRESH_KEYS.has(byte))) {
        debounce.cancel();
        void refresh();
      }
    }
    function onSignal() {
      finish();
    }
    function onResize() {
      render();
    }

    input.on("data", onKey);
    input.resume();
    for (const signal of QUIT_SIGNALS) process.on(signal, onSignal);
    if (output.on !== undefined) output.on("resize", onResize);
    else process.on("SIGWINCH", onResize);
    render();
    void refresh();
  });
}

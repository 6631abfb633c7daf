import { execFile } from "node:child_process";
import { promisify } from "node:util";

// A tmux server of a test's own, for the CLI tests that need a real terminal: `loop monitor`'s
// screen, and the terminal ids of `loop run` in two panes.

const execFileAsync = promisify(execFile);

/** How long {@link TmuxPane.waitFor} waits. */
const DEADLINE_MS = 10_000;

/** `text` quoted for `sh`. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A tmux server of its own (`tmux -S <socket>`), with one pane to run a command in. */
export class TmuxPane {
  /** @param socket - the server's socket file: in the test's folder, removed with it. */
  constructor(private readonly socket: string) {}

  /** Runs a tmux command on this server. */
  async tmux(...args: string[]): Promise<string> {
    const environment: NodeJS.ProcessEnv = { ...process.env };
    delete environment.TMUX;
    const { stdout } = await execFileAsync(
      "tmux",
      ["-S", this.socket, "-f", "/dev/null", ...args],
      {
        env: environment,
      },
    );
    return stdout;
  }

  /** Starts the server with a 100×30 pane running `command` (given to `sh -c`) in `cwd`. */
  async start(command: string, cwd: string): Promise<void> {
    await this.tmux("new-session", "-d", "-x", "100", "-y", "30", "-c", cwd, command);
  }

  /** The pane's text, as a person sees it. */
  screen(): Promise<string> {
    return this.tmux("capture-pane", "-p");
  }

  /** A pane variable (`#{alternate_on}`, `#{cursor_flag}`, `#{pane_pid}`). */
  async variable(format: string): Promise<string> {
    return (await this.tmux("display-message", "-p", format)).trim();
  }

  /** Types keys into the pane (tmux key names: `q`, `C-c`). */
  async keys(...keys: string[]): Promise<void> {
    await this.tmux("send-keys", ...keys);
  }

  /**
   * Polls the screen until `check` holds, and returns that screen; fails with the last screen
   * after {@link DEADLINE_MS}.
   */
  async waitFor(what: string, check: (screen: string) => boolean): Promise<string> {
    const deadline = Date.now() + DEADLINE_MS;
    let screen = "";
    while (Date.now() < deadline) {
      screen = await this.screen();
      if (check(screen)) return screen;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`Timed out waiting for ${what}. The screen was:\n${screen}`);
  }

  /** Stops the server and everything running in it. */
  async kill(): Promise<void> {
    await this.tmux("kill-server").catch(() => undefined);
  }
}

import { sanitizeTerminalId } from "./safe-terminal-id.js";

/** The environment variables {@link getTerminalId} reads, as a plain mapping. */
export type TerminalEnvironment = Readonly<Record<string, string | undefined>>;

/** Options of {@link getTerminalId}. */
export interface TerminalIdOptions {
  /** The id to use when no variable names the terminal. Default `"default"`. */
  readonly fallback?: string | undefined;
}

/** One source of a terminal id: the variables it reads and the prefix of the id. */
export interface TerminalIdSource {
  /** Prefix of the id (`tmux`), so ids from different terminal programs never collide. */
  readonly prefix: string;
  /** The variables that name the terminal; all must be set (non-blank), joined with `-`. */
  readonly variables: readonly [string, ...string[]];
  /** The terminal program, for the docs. */
  readonly program: string;
}

/**
 * Where a terminal id comes from, in order, after `LOOP_TERMINAL_ID`. Multiplexers come
 * first: a pane inside tmux, zellij or screen inherits the variables of the terminal window
 * the multiplexer was started in, which all its panes share. Internal: the docs test reads it.
 */
export const TERMINAL_ID_SOURCES: readonly TerminalIdSource[] = [
  { prefix: "tmux", variables: ["TMUX_PANE"], program: "tmux (pane id, `%3`)" },
  {
    prefix: "zellij",
    variables: ["ZELLIJ_SESSION_NAME", "ZELLIJ_PANE_ID"],
    program: "zellij (session name and pane id)",
  },
  { prefix: "screen", variables: ["STY", "WINDOW"], program: "GNU screen (session and window)" },
  { prefix: "wezterm", variables: ["WEZTERM_PANE"], program: "WezTerm (pane id)" },
  { prefix: "kitty", variables: ["KITTY_WINDOW_ID"], program: "kitty (window id)" },
  { prefix: "iterm", variables: ["ITERM_SESSION_ID"], program: "iTerm2 (session id)" },
  { prefix: "terminal", variables: ["TERM_SESSION_ID"], program: "macOS Terminal (session id)" },
  { prefix: "wt", variables: ["WT_SESSION"], program: "Windows Terminal (session GUID)" },
  { prefix: "alacritty", variables: ["ALACRITTY_WINDOW_ID"], program: "Alacritty (window id)" },
  {
    prefix: "konsole",
    variables: ["KONSOLE_DBUS_SESSION"],
    program: "Konsole (D-Bus session path)",
  },
  {
    prefix: "gnome",
    variables: ["GNOME_TERMINAL_SCREEN"],
    program: "GNOME Terminal (D-Bus screen path)",
  },
  { prefix: "x11", variables: ["WINDOWID"], program: "xterm and other X11 terminals (window id)" },
];

/** The value of `name`, or `null` when it is unset, empty or only white space. */
function variable(environment: TerminalEnvironment, name: string): string | null {
  const value = environment[name];
  return value === undefined || value.trim() === "" ? null : value;
}

/** The raw id of `source` (`tmux-%3`), or `null` when one of its variables is unset. */
function rawIdOf(environment: TerminalEnvironment, source: TerminalIdSource): string | null {
  const values: string[] = [];
  for (const name of source.variables) {
    const value = variable(environment, name);
    if (value === null) return null;
    values.push(value);
  }
  return [source.prefix, ...values].join("-");
}

/**
 * Finds the id of the terminal the loop runs in, so loops in different terminals keep
 * separate state (the seed's terminal isolation). In order:
 *
 * 1. `LOOP_TERMINAL_ID`, as given (no prefix) — set it to choose the id yourself;
 * 2. the first terminal session variable set, in the documented order (tmux,
 *    zellij, screen, WezTerm, kitty, iTerm2, macOS Terminal, Windows Terminal, Alacritty,
 *    Konsole, GNOME Terminal, X11 `WINDOWID`), prefixed with its source: `tmux-%3`;
 * 3. `options.fallback`, or `"default"`.
 *
 * Blank variables count as unset. The result is always a safe single path segment
 * (`isSafeTerminalId`): unsafe text is made safe by {@link sanitizeTerminalId}, which keeps
 * different raw ids different. Pure: the caller passes the environment variables (in Node,
 * the process environment).
 *
 * Two terminals can still get the same id (two instances of one terminal program numbering
 * their windows alike, or the fallback); a store with a lock then refuses the second loop
 * with a `StateLockedError`, and `LOOP_TERMINAL_ID` tells them apart.
 *
 * @param environment - the environment variables.
 * @param options - the fallback id.
 * @returns a safe terminal id.
 * @example
 * ```ts
 * getTerminalId({ TMUX_PANE: "%3" }); // "tmux-_3-…" (the `%` replaced, a hash appended)
 * getTerminalId({ LOOP_TERMINAL_ID: "review" }); // "review"
 * getTerminalId({}); // "default"
 * ```
 */
export function getTerminalId(
  environment: TerminalEnvironment,
  options?: TerminalIdOptions | null,
): string {
  const explicit = variable(environment, "LOOP_TERMINAL_ID");
  if (explicit !== null) return sanitizeTerminalId(explicit);
  for (const source of TERMINAL_ID_SOURCES) {
    const raw = rawIdOf(environment, source);
    if (raw !== null) return sanitizeTerminalId(raw);
  }
  return sanitizeTerminalId(options?.fallback ?? "default");
}

import type { CliOutput } from "../cli-io.js";

/** The escape sequences the dashboard uses (xterm's, which every current terminal knows). */
export const SCREEN_CODES = {
  /** Switches to the alternate screen, saving the shell's screen. */
  enterAlternateScreen: "\u001b[?1049h",
  /** Switches back to the shell's screen as it was. */
  leaveAlternateScreen: "\u001b[?1049l",
  /** Hides the cursor. */
  hideCursor: "\u001b[?25l",
  /** Shows the cursor. */
  showCursor: "\u001b[?25h",
  /** Turns every colour off. */
  resetStyle: "\u001b[0m",
  /** Clears from the cursor to the end of the screen. */
  clearBelow: "\u001b[J",
  /** Clears the cursor's whole line. */
  clearLine: "\u001b[2K",
} as const;

/**
 * The text that draws `lines` over the whole screen in one write: each line at its row
 * (cleared first, so a shorter line leaves nothing of the previous frame), then the rest of
 * the screen cleared. Lines must already fit the width.
 */
export function drawScreen(lines: readonly string[]): string {
  const rows = lines.map(
    (line, index) =>
      `\u001b[${index + 1};1H${SCREEN_CODES.clearLine}${line}${SCREEN_CODES.resetStyle}`,
  );
  return `${rows.join("")}\u001b[${lines.length + 1};1H${SCREEN_CODES.clearBelow}`;
}

/** A terminal output: what `process.stdout` is on a terminal. */
export interface TerminalOutput extends CliOutput {
  /** The terminal's height in rows. */
  readonly rows?: number | undefined;
}

/** Standard input, when it may be a terminal that can be put in raw mode. */
export interface KeyInput extends NodeJS.ReadableStream {
  /** Whether it is a terminal. */
  readonly isTTY?: boolean | undefined;
  /** Raw mode: every key as it is typed, Ctrl+C as byte 3 instead of SIGINT (terminals only). */
  setRawMode?(mode: boolean): unknown;
  /** Whether raw mode is on (terminals only). */
  readonly isRaw?: boolean | undefined;
}

/** The full-screen display of the dashboard on a terminal; see {@link openTerminalScreen}. */
export interface TerminalScreen {
  /** Draws a frame over the previous one. */
  draw(lines: readonly string[]): void;
  /**
   * Gives the terminal back as it was: leaves the alternate screen, shows the cursor, turns raw
   * mode off. Safe to call more than once; later calls do nothing.
   */
  restore(): void;
}

/**
 * Takes over the terminal for a full-screen display: switches to the alternate screen, hides
 * the cursor and, when standard input is a terminal, puts it in raw mode (so keys arrive one by
 * one and Ctrl+C as a key). Until {@link TerminalScreen.restore} runs, a `process` `exit`
 * handler restores the terminal, whatever ends the process.
 *
 * @param output - the terminal to draw on.
 * @param input - standard input, for raw mode.
 */
export function openTerminalScreen(output: TerminalOutput, input: KeyInput): TerminalScreen {
  const rawModeWas = input.isRaw === true;
  const canSetRawMode = input.isTTY === true && typeof input.setRawMode === "function";
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    process.off("exit", restore);
    output.write(
      `${SCREEN_CODES.resetStyle}${SCREEN_CODES.showCursor}${SCREEN_CODES.leaveAlternateScreen}`,
    );
    try {
      if (canSetRawMode) input.setRawMode?.(rawModeWas);
    } catch {
      // The terminal is gone (closed, hung up): there is no mode left to restore.
    }
  };
  process.on("exit", restore);
  output.write(`${SCREEN_CODES.enterAlternateScreen}${SCREEN_CODES.hideCursor}`);
  try {
    if (canSetRawMode) input.setRawMode?.(true);
  } catch (error) {
    restore();
    throw error;
  }
  return {
    draw(lines) {
      if (!restored) output.write(drawScreen(lines));
    },
    restore,
  };
}

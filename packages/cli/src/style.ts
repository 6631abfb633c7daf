import type { CliIo, CliOutput } from "./cli-io.js";

/** Text styles for one output: ANSI colours on a terminal, plain text otherwise. */
export interface Style {
  /** Whether colours are on. */
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

function wrap(enabled: boolean, open: number, close: number): (text: string) => string {
  return enabled ? (text) => `\u001b[${open}m${text}\u001b[${close}m` : (text) => text;
}

/**
 * Colours for `output`: on when it is a terminal and `NO_COLOR` is unset or empty
 * (https://no-color.org), or when `FORCE_COLOR` is set to anything but `0`.
 */
export function createStyle(output: CliOutput, env: CliIo["env"]): Style {
  const force = env.FORCE_COLOR;
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== "";
  const enabled =
    force !== undefined && force !== "" ? force !== "0" : output.isTTY === true && !noColor;
  return {
    enabled,
    bold: wrap(enabled, 1, 22),
    dim: wrap(enabled, 2, 22),
    red: wrap(enabled, 31, 39),
    green: wrap(enabled, 32, 39),
    yellow: wrap(enabled, 33, 39),
    cyan: wrap(enabled, 36, 39),
  };
}

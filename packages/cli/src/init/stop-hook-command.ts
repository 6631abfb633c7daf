import { dirname } from "node:path";
import { quote } from "shlex";
import type { CliIo } from "../cli-io.js";
import { findExecutable } from "../run/find-executable.js";
import { STOP_HOOK_COMMAND } from "./stop-hook-settings.js";

/** The command line Claude Code is to run as the Stop hook, and why it is that one. */
export type StopHookCommandChoice =
  /** `loop` is on `PATH`: `loop hook stop`, the same on every machine. */
  | { readonly kind: "on-path"; readonly command: string }
  /** `loop` is not on `PATH` (an alias at most): this CLI's own absolute command. */
  | { readonly kind: "absolute"; readonly command: string; readonly cliFolder: string }
  /** Neither: nothing that Claude Code's hook shell could run. */
  | { readonly kind: "none" };

/**
 * Chooses the Stop hook's command. Claude Code runs hooks in a non-interactive shell, which has
 * the `PATH` but none of the user's aliases or shell functions: with `loop` only an alias,
 * `loop hook stop` exits 127 there. So the command is `loop hook stop` when an executable `loop`
 * is on `PATH`, else the absolute command that runs this CLI (`'/usr/bin/node'
 * '/…/packages/cli/dist/loop.js' hook stop`, quoted for the shell), else none.
 *
 * @param io - the environment (`PATH`), the folder, and how this CLI runs (`io.command`).
 */
export async function chooseStopHookCommand(io: CliIo): Promise<StopHookCommandChoice> {
  if ((await findExecutable("loop", io.env.PATH, io.cwd)) !== null) {
    return { kind: "on-path", command: STOP_HOOK_COMMAND };
  }
  const self = io.command;
  if (self === undefined || self.length === 0) return { kind: "none" };
  const script = self.at(-1) ?? "";
  return {
    kind: "absolute",
    command: `${self.map((part) => quote(part)).join(" ")} hook stop`,
    cliFolder: dirname(dirname(script)),
  };
}

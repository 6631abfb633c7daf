import { STOP_HOOK_BLOCK_CAP_VARIABLE } from "@loop/claude";
import { errorMessage } from "../error-message.js";
import { jsonErrorPosition } from "./json-error-position.js";

/** The command Claude Code runs as the Stop hook when `loop` is on the hook shell's `PATH`. */
export const STOP_HOOK_COMMAND = "loop hook stop";

/** Where Claude Code reads a project's shared settings, relative to the project folder. */
export const CLAUDE_SETTINGS_PATH = ".claude/settings.json";

/** What the Stop hook's settings hold. */
export interface StopHookSettingsOptions {
  /** The hook's command line. Default: {@link STOP_HOOK_COMMAND}. */
  readonly command?: string | undefined;
  /**
   * The Stop-hook blocks in a row Claude Code is to honour (`CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` in
   * the settings' `env`): the loop's `max_iterations`, so Claude Code does not end the loop's turn
   * after its default 8. Default: no `env` entry.
   */
  readonly blockCap?: number | undefined;
}

/** A command hook entry of Claude Code's settings. */
interface CommandHook {
  readonly type: "command";
  readonly command: string;
}

/** The settings {@link stopHookSettings} makes. */
export interface StopHookSettings {
  env?: Record<string, string>;
  hooks: { Stop: { hooks: CommandHook[] }[] };
}

/**
 * The `.claude/settings.json` snippet that registers the Stop hook and lets the loop's iterations
 * run: `{"env":{"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP":"20"},"hooks":{"Stop":[{"hooks":[{"type":
 * "command","command":"loop hook stop"}]}]}}`. Stop hooks take no `matcher`.
 *
 * @param options - the command and the block cap.
 * @returns a new object on each call.
 */
export function stopHookSettings(options: StopHookSettingsOptions = {}): StopHookSettings {
  const command = options.command ?? STOP_HOOK_COMMAND;
  const hooks = { Stop: [{ hooks: [{ type: "command" as const, command }] }] };
  return options.blockCap === undefined
    ? { hooks }
    : { env: { [STOP_HOOK_BLOCK_CAP_VARIABLE]: String(options.blockCap) }, hooks };
}

/** What {@link mergeStopHook} made of a settings file. */
export type StopHookMerge =
  /** The hook was added: `text` is the new file. */
  | { readonly kind: "added"; readonly text: string }
  /** A Stop hook running `loop hook stop` and a high enough block cap are already there. */
  | { readonly kind: "present" }
  /** The file cannot be merged into safely; it must be left as it is. */
  | {
      readonly kind: "invalid";
      readonly message: string;
      readonly line?: number;
      readonly column?: number;
    };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a command runs this hook: `loop hook stop`, `npx loop hook stop`, `…/loop.js hook stop`. */
function runsStopHook(hook: unknown): boolean {
  if (!isRecord(hook) || typeof hook.command !== "string") return false;
  return /(?:^|[\s/"'])loop(?:\.js)?["']?\s+hook\s+stop(?:\s|$)/.test(hook.command.trim());
}

function hasStopHook(stop: readonly unknown[]): boolean {
  return stop.some(
    (group) => isRecord(group) && Array.isArray(group.hooks) && group.hooks.some(runsStopHook),
  );
}

type InvalidSettings = Extract<StopHookMerge, { kind: "invalid" }>;

/** The settings as an object, or why they cannot be merged into. */
type ParsedSettings =
  | { readonly ok: true; readonly settings: Record<string, unknown> }
  | { readonly ok: false; readonly problem: InvalidSettings };

function parseSettings(text: string): ParsedSettings {
  if (text.trim() === "") return { ok: true, settings: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = errorMessage(error);
    const position = jsonErrorPosition(text, error);
    return {
      ok: false,
      problem: { kind: "invalid", message: `not valid JSON (${reason})`, ...position },
    };
  }
  if (!isRecord(value)) {
    const message = "expected a JSON object ({ … }) at the top level";
    return { ok: false, problem: { kind: "invalid", message } };
  }
  return { ok: true, settings: value };
}

/**
 * The block cap the settings' `env` should have: `blockCap`, unless the one there already lets
 * as many blocks through (a higher number, or 0 and below: no cap). `undefined`: leave it.
 */
function blockCapToWrite(
  env: Record<string, unknown>,
  blockCap: number | undefined,
): string | undefined {
  if (blockCap === undefined) return undefined;
  const current = env[STOP_HOOK_BLOCK_CAP_VARIABLE];
  const parsed = typeof current === "string" ? Number.parseInt(current, 10) : Number.NaN;
  if (!Number.isNaN(parsed) && (parsed <= 0 || parsed >= blockCap)) return undefined;
  return String(blockCap);
}

/**
 * Adds the Stop hook and the block cap of {@link stopHookSettings} to the text of a Claude Code
 * settings file, keeping every other key, variable and hook (other events, other Stop hooks), in
 * their order. Pure: the caller reads and writes the file.
 *
 * - No file, or an empty one: the snippet alone.
 * - A Stop hook already running `loop hook stop` (also as `npx loop hook stop` or a path to
 *   `loop.js`) is never added twice; a `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` that already lets as
 *   many blocks through is kept. With both there: `present`, nothing to write.
 * - Text that is not a JSON object, `hooks` or `env` that is not an object, or `hooks.Stop` that
 *   is not a list: `invalid`, with the position of a JSON syntax error; the file must not be touched.
 *
 * @param text - the settings file's text, or `null` when it does not exist.
 * @param options - the hook's command and the block cap.
 * @returns the new text (two-space indented, ending with a newline), or why not.
 */
export function mergeStopHook(
  text: string | null,
  options: StopHookSettingsOptions = {},
): StopHookMerge {
  const parsed = parseSettings(text ?? "");
  if (!parsed.ok) return parsed.problem;
  const { settings } = parsed;
  const hooks = settings.hooks ?? {};
  if (!isRecord(hooks)) {
    return { kind: "invalid", message: '"hooks" must be an object of hook lists by event name' };
  }
  const stop = hooks.Stop ?? [];
  if (!Array.isArray(stop)) return { kind: "invalid", message: '"hooks.Stop" must be a list' };
  const env = settings.env ?? {};
  if (!isRecord(env)) {
    return { kind: "invalid", message: '"env" must be an object of environment variables' };
  }
  const cap = blockCapToWrite(env, options.blockCap);
  const hookPresent = hasStopHook(stop);
  if (hookPresent && cap === undefined) return { kind: "present" };
  const snippet = stopHookSettings(options);
  const [group] = snippet.hooks.Stop;
  const merged: Record<string, unknown> = { ...settings };
  if (cap !== undefined) merged.env = { ...env, [STOP_HOOK_BLOCK_CAP_VARIABLE]: cap };
  if (!hookPresent) merged.hooks = { ...hooks, Stop: [...stop, group] };
  return { kind: "added", text: `${JSON.stringify(merged, null, 2)}\n` };
}

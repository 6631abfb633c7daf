import { errorMessage } from "../error-message.js";
import { jsonErrorPosition } from "./json-error-position.js";

/** The command Claude Code runs as the Stop hook: `loop` must be on the hook shell's `PATH`. */
export const STOP_HOOK_COMMAND = "loop hook stop";

/** Where Claude Code reads a project's shared settings, relative to the project folder. */
export const CLAUDE_SETTINGS_PATH = ".claude/settings.json";

/** A command hook entry of Claude Code's settings. */
interface CommandHook {
  readonly type: "command";
  readonly command: string;
}

/**
 * The `.claude/settings.json` snippet that registers `loop hook stop` as Claude Code's Stop hook:
 * `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"loop hook stop"}]}]}}`. Stop hooks
 * take no `matcher`.
 *
 * @returns a new object on each call.
 */
export function stopHookSettings(): { hooks: { Stop: { hooks: CommandHook[] }[] } } {
  return { hooks: { Stop: [{ hooks: [{ type: "command", command: STOP_HOOK_COMMAND }] }] } };
}

/** What {@link mergeStopHook} made of a settings file. */
export type StopHookMerge =
  /** The hook was added: `text` is the new file. */
  | { readonly kind: "added"; readonly text: string }
  /** A Stop hook running `loop hook stop` is already there: nothing to write. */
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
 * Adds the Stop hook of {@link stopHookSettings} to the text of a Claude Code settings file,
 * keeping every other key and every existing hook (other events, other Stop hooks), in their
 * order. Pure: the caller reads and writes the file.
 *
 * - No file, or an empty one: the snippet alone.
 * - A Stop hook already running `loop hook stop` (also as `npx loop hook stop` or a path to
 *   `loop.js`): `present`, nothing to write — never a duplicate.
 * - Text that is not a JSON object, `hooks` that is not an object or `hooks.Stop` that is not
 *   a list: `invalid`, with the position of a JSON syntax error; the file must not be touched.
 *
 * @param text - the settings file's text, or `null` when it does not exist.
 * @returns the new text (two-space indented, ending with a newline), or why not.
 */
export function mergeStopHook(text: string | null): StopHookMerge {
  const parsed = parseSettings(text ?? "");
  if (!parsed.ok) return parsed.problem;
  const { settings } = parsed;
  const hooks = settings.hooks ?? {};
  if (!isRecord(hooks)) {
    return { kind: "invalid", message: '"hooks" must be an object of hook lists by event name' };
  }
  const stop = hooks.Stop ?? [];
  if (!Array.isArray(stop)) return { kind: "invalid", message: '"hooks.Stop" must be a list' };
  if (hasStopHook(stop)) return { kind: "present" };
  const [group] = stopHookSettings().hooks.Stop;
  const merged = { ...settings, hooks: { ...hooks, Stop: [...stop, group] } };
  return { kind: "added", text: `${JSON.stringify(merged, null, 2)}\n` };
}

import { isAbsolute, resolve } from "node:path";
import { getTerminalId, type LoopConfig, LoopError } from "@loop/core";
import {
  ConfigNotFoundError,
  createFileStateStore,
  type FileStateStore,
  loadConfigFile,
} from "@loop/fs";
import type { CliIo } from "./cli-io.js";

/** Where the config lives unless `--config` says otherwise. */
export const DEFAULT_CONFIG_PATH = ".claude/loop/config.yaml";
/** Where `loop run` writes `status.json` for monitors, relative to the project folder. */
export const STATUS_FILE_PATH = ".claude/loop/status.json";
/**
 * The project's state root unless `--state-dir` or `LOOP_STATE_DIR` names another, relative to
 * the project folder: state is kept per project, and per terminal inside it
 * (`<root>/terminals/<terminal id>/`).
 */
export const STATE_DIR_PATH = ".claude/loop/state";

/** The options every command that touches a project shares. */
export const PROJECT_OPTIONS = {
  config: { type: "string" },
  "state-dir": { type: "string" },
  "terminal-id": { type: "string" },
} as const;

/** The options of {@link PROJECT_OPTIONS} and their descriptions, a line each. */
const PROJECT_OPTION_ROWS: readonly (readonly [string, ...string[]])[] = [
  ["--config <file>", `Config file (default ${DEFAULT_CONFIG_PATH}; missing is fine)`],
  ["--state-dir <dir>", `State root (default $LOOP_STATE_DIR, else ${STATE_DIR_PATH})`],
  [
    "--terminal-id <id>",
    "Terminal whose state to use (default $LOOP_TERMINAL_ID, else the",
    "terminal's own id: tmux pane, kitty window, …)",
  ],
];

/**
 * The help lines of {@link PROJECT_OPTIONS}, laid out like the command's own options: `indent`
 * spaces before a long option (6 where other options have a short form, `  -e, --executor`),
 * descriptions starting at `column`.
 *
 * @param layout - the command's indent and description column.
 */
export function projectOptionsHelp(layout: { indent: number; column: number }): string {
  return PROJECT_OPTION_ROWS.flatMap(([option, first, ...more]) => [
    `${" ".repeat(layout.indent)}${option}`.padEnd(layout.column) + first,
    ...more.map((line) => " ".repeat(layout.column) + line),
  ]).join("\n");
}

/** A project as the commands see it: its folder, config, state root and terminal. */
export interface Project {
  /** The project folder (the current directory). */
  readonly cwd: string;
  /** The config file, absolute. */
  readonly configPath: string;
  /** Whether `--config` named it (then it must exist). */
  readonly configGiven: boolean;
  /** The state store. */
  readonly store: FileStateStore;
  /**
   * Whether `--state-dir` or `LOOP_STATE_DIR` chose the state root (a root other projects may
   * share); otherwise it is the project's own {@link STATE_DIR_PATH}.
   */
  readonly stateGiven: boolean;
  /** The terminal id: `--terminal-id`, else from the environment. */
  readonly terminalId: string;
  /** Whether `--terminal-id` (or `LOOP_TERMINAL_ID`) chose it. */
  readonly terminalGiven: boolean;
  /** `path` resolved against the project folder. */
  resolve(path: string): string;
}

/** The project of the current folder, from the shared options and the environment. */
export function openProject(
  io: CliIo,
  values: Readonly<Record<string, string | boolean | undefined>>,
): Project {
  const at = (path: string) => (isAbsolute(path) ? path : resolve(io.cwd, path));
  const config = typeof values.config === "string" ? values.config : undefined;
  const stateDir =
    typeof values["state-dir"] === "string" ? values["state-dir"] : io.env.LOOP_STATE_DIR;
  const terminal = typeof values["terminal-id"] === "string" ? values["terminal-id"] : undefined;
  const stateGiven = stateDir !== undefined && stateDir !== "";
  const root = !stateGiven
    ? at(STATE_DIR_PATH)
    : stateDir.startsWith("~")
      ? stateDir
      : at(stateDir);
  return {
    cwd: io.cwd,
    configPath: at(config ?? DEFAULT_CONFIG_PATH),
    configGiven: config !== undefined,
    store: createFileStateStore({ root }),
    stateGiven,
    terminalId: terminal ?? getTerminalId(io.env),
    terminalGiven: terminal !== undefined || (io.env.LOOP_TERMINAL_ID ?? "") !== "",
    resolve: at,
  };
}

/** The project's config: the file (optional unless `--config` named it) over the defaults. */
export async function loadProjectConfig(project: Project): Promise<LoopConfig> {
  try {
    return await loadConfigFile(project.configPath, { optional: !project.configGiven });
  } catch (error) {
    // The SDK's advice ({ optional: true }) is for code; a user named the file with --config.
    if (ConfigNotFoundError.isInstance(error)) {
      throw new LoopError({
        message: `the config ${project.configPath} given with --config is not found; name an existing file, or leave --config out to use ${DEFAULT_CONFIG_PATH} (missing is fine there).`,
      });
    }
    throw error;
  }
}

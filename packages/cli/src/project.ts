import { isAbsolute, resolve } from "node:path";
import { getTerminalId, type LoopConfig, LoopError } from "@loop/core";
import { ConfigNotFoundError, loadConfigFile } from "@loop/fs";
import type { CliIo } from "./cli-io.js";
import { adoptProjectState } from "./state/adopt-project-state.js";
import { fileBackend } from "./store/file-backend.js";
import { openBackend, type StoreChoice } from "./store/open-backend.js";
import type { ProjectBackend, ProjectStateStore } from "./store/project-backend.js";

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
  store: { type: "string" },
  "state-dir": { type: "string" },
  "terminal-id": { type: "string" },
} as const;

/** The options of {@link PROJECT_OPTIONS} and their descriptions, a line each. */
const PROJECT_OPTION_ROWS: readonly (readonly [string, ...string[]])[] = [
  ["--config <file>", `Config file (default ${DEFAULT_CONFIG_PATH}; missing is fine)`],
  [
    "--store <where>",
    "files, or a postgres:// URL a fleet shares (default $LOOP_STORE,",
    "else the config's state.store, else files; docs/running-a-fleet.md)",
  ],
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
  /** The state store: `backend.store`. */
  readonly store: ProjectStateStore;
  /** Where the state and the decisions are: the project's files, or a database. */
  readonly backend: ProjectBackend;
  /**
   * The file store's root folder: `--state-dir`, `LOOP_STATE_DIR` or {@link STATE_DIR_PATH};
   * `null` when the state is in a database (`--store postgres://…`).
   */
  readonly stateRoot: string | null;
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

/**
 * The project of the current folder, from the shared options and the environment, with its
 * state in files (see {@link openLoopProject} for the store its options and config choose).
 */
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
  const backend = fileBackend(root);
  return {
    cwd: io.cwd,
    configPath: at(config ?? DEFAULT_CONFIG_PATH),
    configGiven: config !== undefined,
    store: backend.store,
    backend,
    stateRoot: backend.root,
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

/**
 * Where `--store`, else `$LOOP_STORE`, else the config's `state.store` says the state is.
 *
 * @param io - the CLI's environment.
 * @param values - the command's options.
 * @param config - the project's config.
 */
export function storeChoice(
  io: CliIo,
  values: Readonly<Record<string, string | boolean | undefined>>,
  config: LoopConfig,
): StoreChoice {
  if (typeof values.store === "string") return { value: values.store, source: "--store" };
  const fromEnv = io.env.LOOP_STORE;
  if (fromEnv !== undefined && fromEnv !== "") return { value: fromEnv, source: "$LOOP_STORE" };
  return { value: config.state.store, source: "state.store" };
}

/**
 * Opens the project of the current folder for a command that reads or writes its loops: its
 * config, and its state where {@link storeChoice} says — the project's files (this project's
 * state first moved out of the seed's `~/.claude/state/`, see `adoptProjectState`), or a
 * database. Close `project.backend` when done.
 *
 * @param command - the command's name, for the lines on stderr (`run`).
 * @param io - the CLI's environment.
 * @param values - the command's options.
 */
export async function openLoopProject(
  command: string,
  io: CliIo,
  values: Readonly<Record<string, string | boolean | undefined>>,
): Promise<{ readonly project: Project; readonly config: LoopConfig }> {
  const files = openProject(io, values);
  const config = await loadProjectConfig(files);
  const choice = storeChoice(io, values, config);
  if (choice.value.trim() === "files") {
    await adoptProjectState(command, files, io);
    return { project: files, config };
  }
  if (typeof values["state-dir"] === "string") {
    throw new LoopError({
      message: `--state-dir names a folder for the state, and ${choice.source} a database: give one of them.`,
    });
  }
  const backend = await openBackend(choice, files.stateRoot ?? "");
  if (choice.source === "state.store" && command === "run") {
    // A cloned repository's config chose where the loop's state and decisions go: say where.
    io.stderr.write(
      `loop ${command}: state and decisions go to ${backend.where} (state.store of ${files.configPath})\n`,
    );
  }
  return {
    project: { ...files, store: backend.store, backend, stateRoot: backend.root, stateGiven: true },
    config,
  };
}

/**
 * {@link openLoopProject}, then `work` on the project and its config; the backend is closed
 * when `work` is done, whatever it did (a database's pool ended).
 *
 * @param command - the command's name, for the lines on stderr.
 * @param io - the CLI's environment.
 * @param values - the command's options.
 * @param work - what the command does with the project.
 */
export async function withLoopProject<Result>(
  command: string,
  io: CliIo,
  values: Readonly<Record<string, string | boolean | undefined>>,
  work: (project: Project, config: LoopConfig) => Promise<Result>,
): Promise<Result> {
  const { project, config } = await openLoopProject(command, io, values);
  try {
    return await work(project, config);
  } finally {
    await project.backend.close();
  }
}

import { afterEach, beforeEach } from "vitest";
import { initGitRepository } from "../../support/git-repository.js";
import {
  type AnthropicStandIn,
  type AnthropicStandInOptions,
  startAnthropicStandIn,
} from "../stand-ins/anthropic-api.js";
import { type TempFolder, tempFolder } from "./temp-folder.js";

/** What each test of a Claude Code file gets: a HOME, a project and the API stand-in. */
export interface ClaudeTestBed {
  /** The agent's HOME, a temp folder (no real settings or credentials). */
  readonly home: string;
  /** The project: a temp folder that is a real git repository. */
  readonly project: string;
  /** The running stand-in, if the test started one. */
  readonly standIn: AnthropicStandIn | undefined;
  /** Starts the stand-in (closing one the test started before); it is closed after the test. */
  startStandIn(options: AnthropicStandInOptions): Promise<AnthropicStandIn>;
}

/**
 * Gives every test of the calling `describe` a fresh HOME, a fresh git repository holding
 * `files`, and a stand-in it may start; all removed after the test.
 *
 * @param files - the project's committed files.
 */
export function useClaudeTestBed(files: Readonly<Record<string, string>>): ClaudeTestBed {
  let home: TempFolder | undefined;
  let project: TempFolder | undefined;
  let standIn: AnthropicStandIn | undefined;
  beforeEach(async () => {
    home = await tempFolder("home");
    project = await tempFolder("project");
    await initGitRepository(project.path, files);
  });
  afterEach(async () => {
    await standIn?.close();
    standIn = undefined;
    await Promise.all([home?.remove(), project?.remove()]);
  });
  const required = (folder: TempFolder | undefined) => {
    if (folder === undefined) throw new Error("the test bed is used outside a test");
    return folder.path;
  };
  return {
    get home() {
      return required(home);
    },
    get project() {
      return required(project);
    },
    get standIn() {
      return standIn;
    },
    async startStandIn(options) {
      await standIn?.close();
      standIn = await startAnthropicStandIn(options);
      return standIn;
    },
  };
}

import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { LoopError } from "@loop/core";
import { createFileSharedLimits, createFileStateStore, createJsonlLogger } from "@loop/fs";
import { readLastEvents } from "../log-tail.js";
import type { ProjectBackend } from "./project-backend.js";

/**
 * The slow re-read of a monitor watching files, in case a watch missed a change (a network
 * file system, a full inotify).
 */
const FILE_REFRESH_MS = 5000;

/** A fleet name that is a safe file name. */
const FLEET_FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;

/**
 * The default backend: the file state store at `root` (the project's `.claude/loop/state/`,
 * or `--state-dir`) and the project's decision log.
 *
 * @param root - the state root folder (`~` is the store's to expand).
 */
export function fileBackend(root: string): ProjectBackend {
  const store = createFileStateStore({ root });
  return {
    kind: "files",
    store,
    root: store.root,
    where: store.root,
    refreshMs: FILE_REFRESH_MS,
    lockHolder: (terminalId) => store.lockHolder(terminalId),
    lastEvents: (terminalId, count, decisionLog) => readLastEvents(decisionLog, terminalId, count),
    openLogger: ({ decisionLog }) => createJsonlLogger({ path: decisionLog }),
    async openSharedLimits({ name, maxCallsPerHour, maxCostUsd, home }) {
      if (!FLEET_FILE_NAME.test(name)) {
        throw new LoopError({
          message: `fleet.name is ${JSON.stringify(name)}: with files it names the counter file ~/.loop/shared-limits/<name>.json, so use 1 to 100 of A-Z a-z 0-9 . _ - (not starting with a dot).`,
        });
      }
      const folder = join(home, ".loop", "shared-limits");
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const limits = createFileSharedLimits({
        path: join(folder, `${name}.json`),
        maxCallsPerHour,
        maxCostUsd,
      });
      return { ...limits, close: async () => {} };
    },
    close: async () => {},
  };
}

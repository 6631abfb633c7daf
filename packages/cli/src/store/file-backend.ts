import { createFileStateStore, createJsonlLogger } from "@loop/fs";
import { readLastEvents } from "../log-tail.js";
import type { ProjectBackend } from "./project-backend.js";

/**
 * The slow re-read of a monitor watching files, in case a watch missed a change (a network
 * file system, a full inotify).
 */
const FILE_REFRESH_MS = 5000;

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
    close: async () => {},
  };
}

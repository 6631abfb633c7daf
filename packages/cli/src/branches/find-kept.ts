import type { KeptWork } from "@loop/core";
import { LoopError } from "@loop/core";
import { closeMatch } from "../close-match.js";

/**
 * The kept work on `branch`, for `loop branches discard` and `retry`.
 *
 * @param branch - the branch the user named.
 * @param kept - the kept work (`Workspaces.kept()`).
 * @param where - the repository, for the message.
 * @throws {LoopError} when no kept work is on that branch: the message names the close match
 *   (or, for a task id, that task's kept branches) and the way to list them.
 */
export function findKept(branch: string, kept: readonly KeptWork[], where: string): KeptWork {
  const found = kept.find((work) => work.branch === branch);
  if (found !== undefined) return found;
  const branches = kept.map((work) => work.branch);
  const ofTask = kept.filter((work) => work.taskId === branch).map((work) => work.branch);
  const suggestion = closeMatch(branch, branches);
  const hint =
    ofTask.length > 0
      ? ` ${branch} is a task; its work is kept on ${ofTask.join(", ")}.`
      : suggestion !== null
        ? ` Did you mean ${suggestion}?`
        : kept.length === 0
          ? " There is no kept work."
          : ` Kept branches: ${branches.join(", ")}.`;
  throw new LoopError({
    message: `no kept work is on branch ${JSON.stringify(branch)} in ${where}.${hint} \`loop branches\` lists them.`,
  });
}

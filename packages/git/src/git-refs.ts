import { runGit, splitNul } from "./run-git.js";

/** The commit `revision` names in `cwd`; `null` when it names none. */
export async function resolveCommit(cwd: string, revision: string): Promise<string | null> {
  const result = await runGit(
    cwd,
    ["rev-parse", "-q", "--verify", "--end-of-options", `${revision}^{commit}`],
    {
      allowExitCodes: [0, 1, 128],
    },
  );
  return result.exitCode === 0 ? result.stdout.trim() : null;
}

/** Whether `ancestor` is `descendant` or one of its ancestors. */
export async function isAncestor(
  cwd: string,
  ancestor: string,
  descendant: string,
): Promise<boolean> {
  const result = await runGit(cwd, ["merge-base", "--is-ancestor", ancestor, descendant], {
    allowExitCodes: [0, 1],
  });
  return result.exitCode === 0;
}

/** How many commits `tip` has that `exclude` does not. */
export async function commitsBeyond(cwd: string, tip: string, exclude: string): Promise<number> {
  const result = await runGit(cwd, ["rev-list", "--count", tip, "--not", exclude]);
  return Number(result.stdout.trim());
}

/** One step of a ref transaction (`git update-ref --stdin -z`). */
export type RefStep =
  | { readonly create: string; readonly commit: string }
  | { readonly update: string; readonly commit: string }
  | { readonly delete: string; readonly expected?: string | undefined };

/**
 * Changes refs in one atomic transaction (`git update-ref --stdin -z`): all steps happen or
 * none. Used for every branch change (create, rename, delete) so git's config is never
 * written and no two closes compete for its lock.
 */
export async function updateRefs(cwd: string, steps: readonly RefStep[]): Promise<void> {
  if (steps.length === 0) return;
  const commands = steps.map((step) => {
    if ("create" in step) return `create ${step.create}\0${step.commit}\0`;
    if ("update" in step) return `update ${step.update}\0${step.commit}\0\0`;
    return `delete ${step.delete}\0${step.expected ?? ""}\0`;
  });
  await runGit(cwd, ["update-ref", "--stdin", "-z"], {
    input: `start\0${commands.join("")}prepare\0commit\0`,
  });
}

/** The refs under `prefix` (e.g. `refs/heads/loop/kept/`), with their commits. */
export async function listRefs(
  cwd: string,
  prefix: string,
): Promise<{ readonly ref: string; readonly commit: string }[]> {
  const result = await runGit(cwd, ["for-each-ref", "--format=%(refname)%00%(objectname)", prefix]);
  const refs: { ref: string; commit: string }[] = [];
  for (const line of result.stdout.split("\n")) {
    const [ref, commit] = splitNul(line);
    if (ref !== undefined && commit !== undefined) refs.push({ ref, commit });
  }
  return refs;
}

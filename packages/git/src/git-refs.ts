import { readObjectNames } from "./object-reader.js";
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

/** Whether a line of `git cat-file --batch-check` output is an object name. */
const objectName = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * What several revisions name, read by one git (`git cat-file --batch-check`, the one kept
 * running for the repository: `readObjectNames`), in their order:
 * each an object id, or `null` when it names nothing. A revision says what it peels to, as
 * `rev-parse` would: `refs/heads/x^{commit}`, `HEAD^{commit}`. One process instead of one
 * `rev-parse` per name; each name is resolved on its own (a missing one does not fail the
 * others). The names are read one after another, not at one instant: a ref another process
 * moves meanwhile may be read before or after its move.
 */
export async function resolveObjects(
  cwd: string,
  revisions: readonly string[],
): Promise<(string | null)[]> {
  // A name holding a line break is no revision (and would split the batch's lines).
  const asked = revisions.filter((revision) => !/[\r\n]/.test(revision));
  const answers = new Map<string, string | null>();
  if (asked.length > 0) {
    // The repository's kept reader; a git of its own when that cannot answer.
    const lines = await readObjectNames(cwd, asked).catch(async () => {
      const result = await runGit(cwd, ["cat-file", "--batch-check=%(objectname)"], {
        input: `${asked.join("\n")}\n`,
      });
      return result.stdout.split("\n");
    });
    asked.forEach((revision, index) => {
      const line = lines[index]?.trim() ?? "";
      answers.set(revision, objectName.test(line) ? line : null);
    });
  }
  return revisions.map((revision) => answers.get(revision) ?? null);
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

/**
 * One step of a ref transaction (`git update-ref --stdin -z`). `verify` checks that a ref (or
 * `HEAD`) is at `commit` and changes nothing: the whole transaction fails when it is not.
 */
export type RefStep =
  | { readonly verify: string; readonly commit: string }
  | { readonly create: string; readonly commit: string }
  | { readonly update: string; readonly commit: string }
  | { readonly delete: string; readonly expected?: string | undefined };

/**
 * Changes refs in one atomic transaction (`git update-ref --stdin -z`): all steps happen or
 * none (a `verify` that fails stops them all). Used for every branch change (create, rename, delete) so git's config is never
 * written and no two closes compete for its lock.
 */
export async function updateRefs(cwd: string, steps: readonly RefStep[]): Promise<void> {
  if (steps.length === 0) return;
  const commands = steps.map((step) => {
    // `no-deref`: a verify of the symbolic ref HEAD that follows it writes a bogus entry (the
    // branch's commit to zeros) into HEAD's reflog (git 2.39); without following it the value
    // checked is still the commit HEAD names, and nothing is logged.
    if ("verify" in step) return `option no-deref\0verify ${step.verify}\0${step.commit}\0`;
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

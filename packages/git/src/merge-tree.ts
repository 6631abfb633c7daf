import { runGit, splitNul } from "./run-git.js";

/** What `git merge-tree --write-tree` computed. */
export type MergeTreeResult =
  | { readonly clean: true; readonly tree: string }
  | { readonly clean: false; readonly files: readonly string[] };

/**
 * Merges `theirs` into `ours` without touching any working tree or index
 * (`git merge-tree --write-tree`, git ≥ 2.38): the merged tree, or the conflicted files.
 */
export async function mergeTree(
  cwd: string,
  ours: string,
  theirs: string,
): Promise<MergeTreeResult> {
  const result = await runGit(
    cwd,
    ["merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", ours, theirs],
    { allowExitCodes: [0, 1] },
  );
  const [tree, ...files] = splitNul(result.stdout);
  if (result.exitCode === 0) return { clean: true, tree: tree ?? "" };
  return { clean: false, files: [...new Set(files.filter((file) => file !== ""))] };
}

import { runGit } from "./run-git.js";

/** The identity commits get when the repository has none configured. */
export const fallbackIdentity = { name: "loop", email: "loop@localhost" } as const;

/**
 * The environment that gives the workspaces' commits an identity: nothing when the repository
 * (or the environment) configures one, `loop <loop@localhost>` for author and committer when
 * not. Git's config is never written.
 */
export async function commitIdentity(cwd: string): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  // Both roles asked at once (two gits side by side, not one after the other).
  await Promise.all(
    (["AUTHOR", "COMMITTER"] as const).map(async (role) => {
      try {
        await runGit(cwd, ["-c", "user.useConfigOnly=true", "var", `GIT_${role}_IDENT`]);
      } catch {
        env[`GIT_${role}_NAME`] = fallbackIdentity.name;
        env[`GIT_${role}_EMAIL`] = fallbackIdentity.email;
      }
    }),
  );
  return env;
}

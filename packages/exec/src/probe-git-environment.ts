/**
 * The environment of the progress probe's git: this process's, with `GIT_OPTIONAL_LOCKS=0`, so
 * that `git status` never writes the index it refreshes (it would take `index.lock`, and a git
 * the user or the agent runs at that moment would fail on it). git made the switch for tools
 * that run `git status` in the background, as the probe does after every run.
 */
export function probeGitEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, GIT_OPTIONAL_LOCKS: "0" };
}

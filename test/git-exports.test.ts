import * as git from "@loop/git";
import { expect, it } from "vitest";

it("@loop/git exports exactly its public API", () => {
  expect(Object.keys(git).sort()).toEqual([
    "DEFAULT_LOCK_TIMEOUT_MS",
    "GitCommandError",
    "GitVersionError",
    "PlanOutsideRepositoryError",
    "RepositoryError",
    "WorkspaceStateError",
    "gitWorkspaces",
    "safeTaskId",
  ]);
});

import type { ExecutionRequest } from "@loop/core";

/**
 * An {@link ExecutionRequest} as the engine sends an executor for a first attempt at an iteration
 * with no task picked: the plan `plan.md` (empty), no session to continue, nothing unmet and no
 * concerns. The executors under test read the prompt, the session and the signal, not the rest.
 *
 * @param overrides - the fields a test sets, e.g. `{ prompt }` or `{ iteration, sessionId }`.
 * @returns the request, `overrides` applied last.
 */
export function executionRequest(overrides: Partial<ExecutionRequest> = {}): ExecutionRequest {
  return {
    kind: "task",
    task: null,
    prompt: "Work on the next task.",
    iteration: 1,
    attempt: 1,
    terminalId: "test",
    plan: { path: "plan.md", text: "" },
    sessionId: null,
    unmetRequirements: [],
    concerns: [],
    ...overrides,
  };
}

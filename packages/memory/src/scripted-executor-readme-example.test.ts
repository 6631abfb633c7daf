import {
  type Clock,
  type ExecutionRequest,
  type ExecutionResult,
  type Executor,
  parsePlan,
} from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  fails,
  hangs,
  hitsUsageLimit,
} from "@loop/memory";
import { describe, expect, it } from "vitest";

// The code under test: a runner of your own that tries a task up to three times, a minute
// apart, waits for a usage limit to reset, and stops when its signal fires.
async function runTask(
  executor: Executor,
  request: ExecutionRequest,
  clock: Clock,
  signal: AbortSignal,
): Promise<ExecutionResult> {
  for (let attempt = 1; ; attempt += 1) {
    const result = await executor.execute({ ...request, attempt }, { signal });
    if (result.success || signal.aborted || attempt === 3) return result;
    const resetAt = result.usageLimit?.resetAt ?? null;
    await clock.sleep(resetAt === null ? 60_000 : resetAt - clock.now(), signal);
  }
}

const request: ExecutionRequest = {
  kind: "task",
  task: parsePlan("- [ ] TASK-001 Parse the plan\n").tasks[0] ?? null,
  prompt: "Work on TASK-001",
  iteration: 1,
  attempt: 1,
  terminalId: "default",
  plan: { path: "plan.md", text: "- [ ] TASK-001 Parse the plan\n" },
  sessionId: null,
  unmetRequirements: [],
  concerns: [],
};

describe("runTask", () => {
  it("retries a failure, then waits five hours for a usage limit, in no time", async () => {
    const clock = createTestClock({ start: new Date("2026-03-14T10:00:00Z") });
    const executor = createScriptedExecutor(
      [
        fails("npm test exited with code 1"),
        hitsUsageLimit(new Date("2026-03-14T15:00:00Z")),
        completesTask(),
      ],
      { clock },
    );

    const result = await runTask(executor, request, clock, new AbortController().signal);

    expect(result.taskComplete).toBe(true);
    expect(executor.requests.map((sent) => sent.attempt)).toEqual([1, 2, 3]);
    expect(executor.calls.map((call) => new Date(call.at ?? 0).toISOString())).toEqual([
      "2026-03-14T10:00:00.000Z",
      "2026-03-14T10:01:00.000Z",
      "2026-03-14T15:00:00.000Z",
    ]);
    expect(clock.sleeps).toEqual([60_000, 4 * 3_600_000 + 59 * 60_000]);
  });

  it("stops an agent that hangs when the run is aborted", async () => {
    const executor = createScriptedExecutor(hangs());
    const controller = new AbortController();

    const running = runTask(executor, request, createTestClock(), controller.signal);
    controller.abort();

    expect(await running).toEqual({ success: false, output: "", error: "aborted" });
    expect(executor.calls).toHaveLength(1);
    expect(executor.calls[0]?.signalAborted).toBe(true);
  });
});

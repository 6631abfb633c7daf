import { readFileSync } from "node:fs";
import { type ExecutionRequest, type ExecutionResult, parsePlan } from "@loop/core";
import { describe, expect, it } from "vitest";
import { createScriptedExecutor, type ExecutionScript } from "./scripted-executor.js";
import { completesTask, fails, hangs, makesNoProgress } from "./scripted-executor-answers.js";
import { createTestClock } from "./test-clock.js";

const planText = "- [ ] TASK-001 Parse the plan\n- [ ] TASK-002 Write docs\n";

function request(iteration: number): ExecutionRequest {
  const task = parsePlan(planText).tasks[iteration - 1] ?? null;
  return {
    kind: task === null ? "wrap_up" : "task",
    task,
    prompt: `Work on ${task?.id ?? "the wrap-up"}`,
    iteration,
    attempt: 1,
    terminalId: "default",
    plan: { path: "memory:plan.md", text: planText },
    sessionId: null,
    unmetRequirements: [],
    concerns: [],
  };
}

const done: ExecutionResult = { output: "done", success: true, taskComplete: true };
const signal = new AbortController().signal;

describe("createScriptedExecutor", () => {
  it("is an Executor v1 named scripted unless given a name", () => {
    const executor = createScriptedExecutor(done);
    expect(executor.name).toBe("scripted");
    expect(executor.specificationVersion).toBe("v1");
    expect(createScriptedExecutor(done, { name: "claude-fake" }).name).toBe("claude-fake");
    expect(createScriptedExecutor(done, null).name).toBe("scripted");
  });

  it("answers every call with a single result", async () => {
    const executor = createScriptedExecutor(done);
    expect(await executor.execute(request(1), { signal })).toBe(done);
    expect(await executor.execute(request(2), { signal })).toBe(done);
    expect(executor.calls).toHaveLength(2);
  });

  it("runs a function for every call, with the call's number from 1 and its signal", async () => {
    const contexts: { call: number; signal: AbortSignal }[] = [];
    const executor = createScriptedExecutor(async (received, context) => {
      contexts.push(context);
      return { output: `worked on ${received.task?.id}`, success: true };
    });
    const controller = new AbortController();
    expect(await executor.execute(request(1), { signal: controller.signal })).toEqual({
      output: "worked on TASK-001",
      success: true,
    });
    await executor.execute(request(2), { signal: controller.signal });
    expect(contexts).toEqual([
      { call: 1, signal: controller.signal },
      { call: 2, signal: controller.signal },
    ]);
  });

  it("answers from a list, one entry per call: a result, a function or an Error", async () => {
    const crash = new Error("agent crashed");
    const executor = createScriptedExecutor([
      done,
      (received) => ({ output: `attempt ${received.attempt}`, success: false }),
      crash,
    ]);
    expect(await executor.execute(request(1), { signal })).toBe(done);
    expect(await executor.execute(request(2), { signal })).toEqual({
      output: "attempt 1",
      success: false,
    });
    await expect(executor.execute(request(2), { signal })).rejects.toBe(crash);
  });

  it("throws past the end of a list, saying how many calls were scripted", async () => {
    const executor = createScriptedExecutor([done, done], { name: "two-calls" });
    await executor.execute(request(1), { signal });
    await executor.execute(request(2), { signal });
    await expect(executor.execute(request(3), { signal })).rejects.toThrow(
      'Scripted executor "two-calls": call 3 ran past the end of the script, which scripts 2 calls',
    );
    await expect(createScriptedExecutor([]).execute(request(1), { signal })).rejects.toThrow(
      "which scripts 0 calls",
    );
    // The call past the end is recorded too.
    expect(executor.calls).toHaveLength(3);
  });

  it("copies the list: changing it afterwards changes nothing", async () => {
    const script: ExecutionScript[] = [done];
    const executor = createScriptedExecutor(script as ExecutionResult[]);
    script.push(done);
    await executor.execute(request(1), { signal });
    await expect(executor.execute(request(2), { signal })).rejects.toThrow("scripts 1 call");
  });

  it("passes on what a function throws, sync or async, and a single Error every call", async () => {
    const thrown = createScriptedExecutor(() => {
      throw new Error("spawn claude ENOENT");
    });
    await expect(thrown.execute(request(1), { signal })).rejects.toThrow("spawn claude ENOENT");
    const rejected = createScriptedExecutor(async () => {
      throw new Error("socket hang up");
    });
    await expect(rejected.execute(request(1), { signal })).rejects.toThrow("socket hang up");
    const down = createScriptedExecutor(new Error("service down"));
    await expect(down.execute(request(1), { signal })).rejects.toThrow("service down");
    await expect(down.execute(request(2), { signal })).rejects.toThrow("service down");
    expect(down.calls).toHaveLength(2);
  });

  it("records every call: the request as given, whether the signal fired, and when", async () => {
    const clock = createTestClock({ start: 1_000 });
    const executor = createScriptedExecutor([completesTask(), fails("boom")], { clock });
    const first = request(1);
    const second = request(2);
    await executor.execute(first, { signal });
    clock.advance(500);
    await executor.execute(second, { signal });
    expect(executor.calls).toEqual([
      { request: first, signalAborted: false, at: 1_000 },
      { request: second, signalAborted: false, at: 1_500 },
    ]);
    expect(executor.calls[0]?.request).toBe(first);
    expect(executor.requests).toEqual([first, second]);
    expect(executor.requests[1]).toBe(second);
  });

  it("stamps no time without a clock", async () => {
    const executor = createScriptedExecutor(done);
    await executor.execute(request(1), { signal });
    expect(executor.calls[0]?.at).toBeNull();
  });

  it("records a signal fired before the call, or while it runs, but not after it settled", async () => {
    const executor = createScriptedExecutor([done, hangs(), done]);
    await executor.execute(request(1), { signal: AbortSignal.abort() });

    const timeout = new AbortController();
    const hanging = executor.execute(request(2), { signal: timeout.signal });
    expect(executor.calls[1]?.signalAborted).toBe(false);
    timeout.abort();
    await hanging;

    const cleanup = new AbortController();
    await executor.execute(request(3), { signal: cleanup.signal });
    cleanup.abort();

    expect(executor.calls.map((call) => call.signalAborted)).toEqual([true, true, false]);
  });

  it("settles a hangs() call only when its signal fires, resolving aborted", async () => {
    const executor = createScriptedExecutor([hangs(), makesNoProgress()]);
    const controller = new AbortController();
    let settled = false;
    const hanging = executor.execute(request(1), { signal: controller.signal }).finally(() => {
      settled = true;
    });
    // Let every pending microtask and a macrotask run: still hanging.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    controller.abort();
    expect(await hanging).toEqual({ success: false, output: "", error: "aborted" });
    expect(executor.calls[0]?.signalAborted).toBe(true);
  });

  it("resolves a hangs() call at once when its signal has already fired", async () => {
    const executor = createScriptedExecutor(hangs());
    expect(await executor.execute(request(1), { signal: AbortSignal.abort() })).toEqual({
      success: false,
      output: "",
      error: "aborted",
    });
  });

  it("throws a TypeError when a function returns no ExecutionResult", async () => {
    const executor = createScriptedExecutor((() => undefined) as unknown as () => ExecutionResult, {
      name: "forgetful",
    });
    await expect(executor.execute(request(1), { signal })).rejects.toThrow(
      'Scripted executor "forgetful": call 1 returned undefined, not an ExecutionResult',
    );
  });

  it("throws a TypeError for a call without a signal, and records nothing", async () => {
    const executor = createScriptedExecutor(done);
    await expect(
      executor.execute(request(1), undefined as unknown as { signal: AbortSignal }),
    ).rejects.toThrow("execute needs `{ signal }`, an AbortSignal, got undefined");
    expect(executor.calls).toEqual([]);
  });

  it("checks its options and its script when created", () => {
    expect(() => createScriptedExecutor(done, { name: "" })).toThrow(
      "Option `name` must be a non-empty string, got string",
    );
    expect(() =>
      createScriptedExecutor(done, { clock: {} as unknown as { now(): number } }),
    ).toThrow("Option `clock` must have a `now` method, got an object");
    expect(() => createScriptedExecutor("done" as unknown as ExecutionResult)).toThrow(
      /the script must be a function, an ExecutionResult .* got string/,
    );
    expect(() => createScriptedExecutor({ output: "x" } as unknown as ExecutionResult)).toThrow(
      TypeError,
    );
    expect(() => createScriptedExecutor([done, null as unknown as ExecutionResult, done])).toThrow(
      /entry 1 of the script must be .* got null/,
    );
  });
});

// The README's "Test doubles" example is scripted-executor-readme-example.test.ts, word for
// word, so it runs and type-checks with the tests and cannot drift from the code.
it("shows scripted-executor-readme-example.test.ts verbatim in the README", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const example = readFileSync(
    new URL("./scripted-executor-readme-example.test.ts", import.meta.url),
    "utf8",
  );
  expect(readme).toContain(`\`\`\`ts\n${example}\`\`\`\n`);
});

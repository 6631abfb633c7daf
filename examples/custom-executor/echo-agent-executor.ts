import type { ExecutionRequest, ExecutionResult, Executor } from "@loop/core";

/** Your agent: anything that takes a prompt and returns its final answer (an HTTP call, a model). */
export type Agent = (
  prompt: string,
  signal: AbortSignal,
) => Promise<{ text: string; cost: number }>;

/**
 * A custom executor: hands the engine's prompt to `agent` and reports what happened. The agent
 * edits the plan itself (checks the task's box) — or set `taskComplete` when it reports
 * completion some other way. A throw counts as a failed attempt, never a loop crash.
 */
export function createAgentExecutor(agent: Agent): Executor {
  return {
    name: "my-agent",
    specificationVersion: "v1",
    async execute(request: ExecutionRequest, { signal }): Promise<ExecutionResult> {
      const answer = await agent(request.prompt, signal);
      return {
        output: answer.text, // the final answer only, never the prompt
        success: true,
        costUsd: answer.cost,
        taskComplete: /\bTASK_DONE\b/.test(answer.text),
      };
    },
  };
}

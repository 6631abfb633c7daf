import { runLoop } from "@loop/core";
import { createTestClock, MemoryStateStore, memoryPlan } from "@loop/memory";
import { createAgentExecutor } from "./echo-agent-executor.js";

// A stand-in agent that "does" every task and says so; replace it with your model call.
const executor = createAgentExecutor(async (prompt) => ({
  text: `Worked on: ${prompt.split("\n")[0]}\nTASK_DONE`,
  cost: 0.01,
}));

const plan = memoryPlan(
  "# Plan\n\n- [ ] TASK-1 Write the parser\n- [ ] TASK-2 Write the printer\n",
);
const result = await runLoop({
  plan,
  executor,
  store: new MemoryStateStore(),
  clock: createTestClock(),
  config: { exit_policy: { require_exit_signal: false } },
});
console.log(result.exitReason, result.tasksCompleted, `$${result.costUsd.toFixed(2)}`);
console.log(plan.text);

import {
  type Executor,
  type PlanSource,
  parsePlan,
  STATUS_BLOCK_END,
  STATUS_BLOCK_START,
  updatePlan,
} from "@loop/core";

/**
 * A deterministic stand-in for an AI agent, so the quickstart runs without one: it "implements"
 * each task by checking the task's box in the plan, as a real agent edits the plan, and ends its
 * answer with the RALPH_STATUS block. When no required task is left it signals EXIT_SIGNAL: true.
 */
export function createDemoExecutor(plan: PlanSource): Executor {
  return {
    name: "demo",
    specificationVersion: "v1",
    async execute(request) {
      const text = await plan.read();
      const edited = request.task ? updatePlan(text, { check: [request.task.id] }) : text;
      const finished = parsePlan(edited).tasks.every((task) => task.done || task.optional);
      const done = finished ? updatePlan(edited, { status: { exitSignal: true } }) : edited;
      await plan.write(done);
      const work = request.task
        ? `Implemented ${request.task.id}: ${request.task.title}.`
        : "Verified the work.";
      return {
        success: true,
        filesChanged: 1,
        costUsd: 0,
        output: [
          work,
          "",
          STATUS_BLOCK_START,
          `STATUS: ${finished ? "COMPLETE" : "IN_PROGRESS"}`,
          `TASKS_COMPLETED_THIS_LOOP: ${request.task ? 1 : 0}`,
          "FILES_MODIFIED: 1",
          "TESTS_STATUS: PASSING",
          "WORK_TYPE: IMPLEMENTATION",
          `EXIT_SIGNAL: ${finished}`,
          `RECOMMENDATION: ${finished ? "All tasks are done." : "Continue with the next task."}`,
          STATUS_BLOCK_END,
        ].join("\n"),
      };
    },
  };
}

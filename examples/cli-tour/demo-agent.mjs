#!/usr/bin/env node
// A stand-in coding agent for the README's CLI tour, so the tour runs without any AI:
//   loop run --executor command --cmd "node examples/cli-tour/demo-agent.mjs"
// It reads the loop's prompt on standard input, "implements" the task the prompt names by
// checking its box in the plan, and ends its answer with a RALPH_STATUS block — EXIT_SIGNAL true
// once no open task is left. A real agent would write code here.
import { workOnPlan } from "./plan-agent.mjs";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
try {
  console.log(workOnPlan(Buffer.concat(chunks).toString("utf8")));
} catch (error) {
  console.error(`demo-agent: ${error.message}`);
  process.exit(2);
}

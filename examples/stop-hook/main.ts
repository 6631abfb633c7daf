import {
  handleStopHook,
  type StopHookResult,
  stopHookTerminalId,
  toHookOutput,
} from "@loop/claude";
import { createStateManager, updatePrd } from "@loop/core";
import { MemoryStateStore } from "@loop/memory";

// The ralph loop's Stop hook, driven from code: the files live in a Map, the loop state in a
// MemoryStateStore, and each "iteration" of the agent is a few lines appended to the transcript.
// `loop hook stop` does exactly this with the real file system and a FileStateStore.

const PROJECT = "/demo";
const SESSION = "demo-session";
const STATE_FILE = `${PROJECT}/.claude/ralph-loop.local.md`;
const PRD_FILE = `${PROJECT}/.claude/plugin/ralph/prd.json`;
const TRANSCRIPT = `${PROJECT}/transcript.jsonl`;

const files = new Map<string, string>([
  [
    STATE_FILE,
    `---
active: true
iteration: 1
session_id: ${SESSION}
max_iterations: 20
prd_path: .claude/plugin/ralph/prd.json
started_at: "2026-11-29T20:00:00Z"
---

Read .claude/plugin/ralph/prd.json. Find the first story where passes is false, implement it,
run its verification and set passes: true when it passes. One story per iteration.
`,
  ],
  [
    PRD_FILE,
    JSON.stringify(
      {
        project: "todo-api",
        stories: [
          {
            id: "S1",
            title: "Create the Todo model",
            verification: "npm test -- model",
            passes: false,
          },
          { id: "S2", title: "List todos", dependencies: ["S1"], passes: false },
          { id: "S3", title: "Complete a todo", dependencies: ["S2"], passes: false },
        ],
        completedStories: 0,
      },
      null,
      2,
    ),
  ],
  [TRANSCRIPT, ""],
]);

const store = new MemoryStateStore();

/** One turn of the agent: it says something and edits some files (none: no progress). */
function agentTurn(text: string, editedFiles: readonly string[]): void {
  const content = [
    { type: "text", text },
    ...editedFiles.map((file, index) => ({
      type: "tool_use",
      id: `toolu_${files.size}_${index}`,
      name: "Edit",
      input: { file_path: `${PROJECT}/${file}` },
    })),
  ];
  const line = JSON.stringify({ type: "assistant", message: { role: "assistant", content } });
  files.set(TRANSCRIPT, `${files.get(TRANSCRIPT)}${line}\n`);
}

/** The agent marks a story as passing in prd.json, as the loop prompt asks. */
function storyPasses(id: string): void {
  files.set(PRD_FILE, updatePrd(files.get(PRD_FILE) ?? "", { passes: { [id]: true } }));
}

function describeDecision(result: StopHookResult): string {
  if (result.decision === "allow") return `allow  ${result.stderr ?? "(silently)"}`;
  const lines = result.reason.split("\n");
  const iteration = lines.find((line) => line.startsWith("Ralph loop iteration")) ?? "";
  const story = lines.find((line) => line.startsWith("Next story:")) ?? "";
  const attempt = lines.find((line) => line.startsWith("Attempt")) ?? "";
  return `block  ${iteration} ${story}${attempt === "" ? "" : ` (${attempt.replace(/\.$/, "")})`}`;
}

let stops = 0;
/** Claude Code is about to stop: it runs the hook with this input. */
async function stop(sessionId = SESSION, note = ""): Promise<StopHookResult> {
  stops += 1;
  const result = await handleStopHook(
    { session_id: sessionId, transcript_path: TRANSCRIPT, cwd: PROJECT, hook_event_name: "Stop" },
    {
      readFile: async (path) => files.get(path) ?? null,
      writeFile: async (path, text) => {
        files.set(path, text);
      },
      stateStore: store,
      now: () => Date.parse("2026-11-29T20:00:00Z") + stops * 60_000,
    },
  );
  console.log(`stop ${stops}${note}: ${describeDecision(result)}`);
  return result;
}

agentTurn("Starting on S1: the model.", ["src/todo.ts"]);
const first = await stop();
console.log(`        stdout for Claude Code: ${toHookOutput(first).slice(0, 72)}…`);

storyPasses("S1");
agentTurn("S1 passes.", ["src/todo.ts", ".claude/plugin/ralph/prd.json"]);
await stop();

agentTurn("I looked at the router but changed nothing yet.", []);
await stop(); // no edit, no story passed: S2's second attempt

storyPasses("S2");
agentTurn("S2 passes.", ["src/list.ts", ".claude/plugin/ralph/prd.json"]);
await stop();

await stop("another-session", " (another session)"); // the same project, not this loop's session

storyPasses("S3");
agentTurn("S3 passes: every story is done.", ["src/complete.ts", ".claude/plugin/ralph/prd.json"]);
await stop(); // every story passes: the session may stop

const iteration = /^iteration: (\d+)$/m.exec(files.get(STATE_FILE) ?? "")?.[1];
const { state } = await createStateManager(store).readState(stopHookTerminalId(SESSION));
console.log(`state file: iteration ${iteration}`);
console.log(`loop state: completed ${state?.completed_tasks.join(", ")}`);

import { handleStopHook, type StopHookInput, stopHookTerminalId } from "@loop/claude";
import { createStateManager } from "@loop/core";
import { MemoryStateStore } from "@loop/memory";
import { describe, expect, it } from "vitest";

// A ralph-loop session stopping again and again: the hook keeps the loop state in a store
// between stops, so attempts, streaks and the breaker work as in runLoop.

const PROMPT = "Read prd.json. Work on the first story where passes is false.";
const STATE_PATH = "/proj/.claude/ralph-loop.local.md";
const PRD_PATH = "/proj/prd.json";
const TRANSCRIPT = "/home/u/.claude/projects/p/sess-1.jsonl";

const input: StopHookInput = {
  session_id: "sess-1",
  transcript_path: TRANSCRIPT,
  stop_hook_active: true,
  cwd: "/proj",
};

function stateFile(iteration: number): string {
  return `---\nactive: true\niteration: ${iteration}\nsession_id: sess-1\nmax_iterations: 20\nprd_path: prd.json\nstarted_at: "2026-11-29T20:00:00Z"\n---\n\n${PROMPT}\n`;
}

const prd = (passing: readonly string[]) =>
  JSON.stringify({
    project: "demo",
    stories: [
      { id: "S1", title: "Model", passes: passing.includes("S1") },
      { id: "S2", title: "Needs S3", passes: passing.includes("S2"), dependencies: ["S3"] },
      { id: "S3", title: "Auth", passes: passing.includes("S3") },
      { id: "S4", title: "Docs", passes: passing.includes("S4") },
    ],
  });

function assistant(text: string, edits: readonly string[] = []): string {
  const content = [
    { type: "text", text },
    ...edits.map((path) => ({
      type: "tool_use",
      id: path,
      name: "Edit",
      input: { file_path: path },
    })),
  ];
  return JSON.stringify({ type: "assistant", message: { role: "assistant", content } });
}

/** A session: each `stop` appends one iteration's answer to the transcript, then runs the hook. */
function session(passing: string[] = ["S1"]) {
  const files = new Map<string, string>([
    [STATE_PATH, stateFile(1)],
    [PRD_PATH, prd(passing)],
    [
      TRANSCRIPT,
      `${JSON.stringify({ type: "user", message: { role: "user", content: "Start." } })}\n`,
    ],
  ]);
  const store = new MemoryStateStore();
  let now = Date.parse("2026-11-29T20:05:00Z");
  return {
    store,
    passing,
    async stop(answer: string, edits: readonly string[] = []) {
      files.set(TRANSCRIPT, `${files.get(TRANSCRIPT)}${assistant(answer, edits)}\n`);
      files.set(PRD_PATH, prd(passing));
      now += 60_000;
      return handleStopHook(input, {
        readFile: async (path) => files.get(path) ?? null,
        writeFile: async (path, text) => {
          files.set(path, text);
        },
        stateStore: store,
        now: () => now,
      });
    },
  };
}

describe("the Stop hook over several stops, with a state store", () => {
  it("gives up a story after tasks.max_attempts stops without progress and moves on", async () => {
    const loop = session();
    const first = await loop.stop("Set up the project.");
    expect(first).toMatchObject({ decision: "block" });
    if (first.decision !== "block") return;
    expect(first.reason).toContain("Next story: S3 — Auth");
    const second = await loop.stop("Still failing.");
    expect(second.decision === "block" && second.reason).toContain("Attempt 2 of 3.");
    const third = await loop.stop("Still failing.");
    expect(third.decision === "block" && third.reason).toContain("Attempt 3 of 3.");
    const fourth = await loop.stop("Still failing.");
    expect(fourth.decision).toBe("block");
    if (fourth.decision !== "block") return;
    expect(fourth.reason).toContain("Next story: S4 — Docs");
    expect(fourth.reason).toContain(
      "Given up after its attempts (recorded in the loop state): S3.",
    );

    const saved = await createStateManager(loop.store).readState(stopHookTerminalId("sess-1"));
    expect(saved.state).toMatchObject({
      failed_tasks: ["S3"],
      current_task_id: "S4",
      task_attempts: { S3: 3 },
      session_id: "sess-1",
      transcript_lines: 5,
      loop_metadata: { iterations: 4 },
    });
  });

  it("counts files the agent edited as progress: no attempt is used", async () => {
    const loop = session();
    await loop.stop("Set up the project.");
    const second = await loop.stop("Wrote half of the auth module.", ["/proj/src/auth.ts"]);
    expect(second.decision === "block" && second.reason).not.toContain("Attempt 2");
    const third = await loop.stop("No luck.");
    expect(third.decision === "block" && third.reason).toContain("Attempt 2 of 3.");
  });

  it("stops with no_runnable_tasks when the only open stories are stuck", async () => {
    const loop = session(["S1", "S4"]);
    for (let stop = 0; stop < 3; stop += 1) {
      expect((await loop.stop("Still failing.")).decision).toBe("block");
    }
    const last = await loop.stop("Still failing.");
    expect(last).toMatchObject({ decision: "allow", exit: { reason: "no_runnable_tasks" } });
    expect(last.stderr).toContain("stopping (no_runnable_tasks)");
  });

  it("stops with needs_input after stop_when.question_loops answers that only ask", async () => {
    const loop = session();
    await loop.stop("Set up the project.", ["/proj/package.json"]);
    const ask = "Should I use Postgres or SQLite?";
    expect((await loop.stop(ask)).decision).toBe("block");
    expect((await loop.stop(ask)).decision).toBe("block");
    expect(await loop.stop(ask)).toMatchObject({
      decision: "allow",
      exit: { reason: "needs_input" },
    });
  });

  it("stops with prd_complete once the last story passes", async () => {
    const loop = session();
    await loop.stop("Set up.");
    loop.passing.push("S3", "S4", "S2");
    expect(await loop.stop("All done.")).toMatchObject({
      decision: "allow",
      exit: { reason: "prd_complete" },
    });
  });
});

import { resolveConfig } from "@loop/core";
import { describe, expect, it } from "vitest";
import { parseRalphLoopState, withRalphLoopIteration } from "./ralph-loop-state.js";
import { handleStopHook, type StopHookInput, toHookOutput } from "./stop-hook.js";

const PROMPT = "Read .claude/plugin/ralph/prd.json. Find the first story where passes is false.";

function stateFile(fields: Partial<Record<string, string>> = {}): string {
  const values: Record<string, string> = {
    active: "true",
    iteration: "1",
    session_id: "sess-1",
    max_iterations: "20",
    prd_path: ".claude/plugin/ralph/prd.json",
    started_at: '"2026-11-29T20:00:00Z"',
    ...fields,
  };
  const lines = Object.entries(values).map(([key, value]) => `${key}: ${value}`);
  return `---\n${lines.join("\n")}\n---\n\n${PROMPT}\n`;
}

interface Story {
  id: string;
  title: string;
  passes: boolean;
  dependencies?: string[];
  acceptanceCriteria?: string[];
}

function prdFile(stories: Story[]): string {
  return JSON.stringify({ project: "demo", stories, completedStories: 0 }, null, 2);
}

const STORIES: Story[] = [
  { id: "S1", title: "Model", passes: true },
  { id: "S2", title: "Needs S3", passes: false, dependencies: ["S3"] },
  { id: "S3", title: "List todos", passes: false, acceptanceCriteria: ["GET /todos works"] },
];

const input: StopHookInput = {
  session_id: "sess-1",
  transcript_path: "/home/u/.claude/projects/p/sess-1.jsonl",
  stop_hook_active: false,
  cwd: "/proj",
  hook_event_name: "Stop",
};

const STATE_PATH = "/proj/.claude/ralph-loop.local.md";
const PRD_PATH = "/proj/.claude/plugin/ralph/prd.json";

function memoryFs(files: Record<string, string>) {
  const store = new Map(Object.entries(files));
  const writes: [string, string][] = [];
  return {
    store,
    writes,
    readFile: async (path: string) => store.get(path) ?? null,
    writeFile: async (path: string, text: string) => {
      writes.push([path, text]);
      store.set(path, text);
    },
  };
}

function transcriptLine(type: "user" | "assistant", text: string): string {
  return JSON.stringify({ type, message: { role: type, content: text } });
}

describe("parseRalphLoopState", () => {
  it("reads the skill's state file", () => {
    expect(parseRalphLoopState(stateFile())).toEqual({
      ok: true,
      state: {
        active: true,
        iteration: 1,
        sessionId: "sess-1",
        maxIterations: 20,
        prdPath: ".claude/plugin/ralph/prd.json",
        startedAt: "2026-11-29T20:00:00Z",
        prompt: PROMPT,
      },
    });
  });

  it("lists every problem with its line, never throwing", () => {
    const result = parseRalphLoopState(stateFile({ iteration: "one", max_iterations: "0" }));
    expect(result).toEqual({
      ok: false,
      problems: [
        { line: 3, message: "'iteration' must be an integer of at least 0" },
        { line: 5, message: "'max_iterations' must be an integer of at least 1" },
      ],
    });
  });

  it("reports a missing front matter, an unclosed one, invalid YAML and an empty prompt", () => {
    expect(parseRalphLoopState("just a prompt")).toMatchObject({
      ok: false,
      problems: [{ line: 1 }],
    });
    expect(parseRalphLoopState("---\nactive: true\n")).toMatchObject({ ok: false });
    const bad = parseRalphLoopState("---\nactive: [true\n---\nprompt\n");
    expect(bad.ok).toBe(false);
    expect(parseRalphLoopState(stateFile().replace(PROMPT, ""))).toMatchObject({
      ok: false,
      problems: [{ line: 9, message: "the loop prompt after the front matter is empty" }],
    });
    const missing = parseRalphLoopState("---\nactive: true\n---\nprompt\n");
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.problems.map((problem) => problem.line)).toContain(3);
  });

  it("changes only the iteration value when advancing", () => {
    const text =
      "---\r\nactive: true\r\niteration: 9 # counter\r\nsession_id: s\r\nmax_iterations: 20\r\nprd_path: p.json\r\n---\r\nGo.\r\n";
    expect(withRalphLoopIteration(text, 10)).toBe(text.replace("iteration: 9 ", "iteration: 10 "));
  });
});

describe("handleStopHook", () => {
  it("allows the stop, saying why, for input that is not what Claude Code sends — never throws", async () => {
    const fs = memoryFs({ [PRD_PATH]: prdFile(STORIES) });
    const cases: [unknown, string][] = [
      [null, "the hook input is not a JSON object (got null)"],
      [[], "the hook input is not a JSON object (got an array)"],
      [{ cwd: "/p" }, "the hook input's session_id is not a non-empty string (got nothing)"],
      [{ session_id: "s", cwd: 7 }, "the hook input's cwd is not a non-empty string (got 7)"],
      [
        { ...input, transcript_path: {} },
        "the hook input's transcript_path is not a string (got {})",
      ],
      [
        { ...input, stop_hook_active: "yes" },
        'the hook input\'s stop_hook_active is not true or false (got "yes")',
      ],
    ];
    for (const [given, problem] of cases) {
      expect(await handleStopHook(given as never, fs)).toEqual({
        decision: "allow",
        stderr: `ralph loop: ${problem}; allowing stop.`,
      });
    }
    expect(fs.writes).toEqual([]);
  });

  it("allows when there is no state file", async () => {
    const fs = memoryFs({ [PRD_PATH]: prdFile(STORIES) });
    expect(await handleStopHook(input, fs)).toEqual({ decision: "allow" });
    expect(fs.writes).toEqual([]);
  });

  it("allows a malformed state file, with the reason on stderr", async () => {
    const fs = memoryFs({
      [STATE_PATH]: stateFile({ active: "yes please" }),
      [PRD_PATH]: prdFile(STORIES),
    });
    const result = await handleStopHook(input, fs);
    expect(result.decision).toBe("allow");
    expect(result.stderr).toContain("line 2: 'active' must be true or false");
    expect(fs.writes).toEqual([]);
  });

  it("allows an inactive loop", async () => {
    const fs = memoryFs({
      [STATE_PATH]: stateFile({ active: "false" }),
      [PRD_PATH]: prdFile(STORIES),
    });
    expect(await handleStopHook(input, fs)).toEqual({ decision: "allow" });
  });

  it("never acts in another session of the same project", async () => {
    const fs = memoryFs({ [STATE_PATH]: stateFile(), [PRD_PATH]: prdFile(STORIES) });
    expect(await handleStopHook({ ...input, session_id: "other" }, fs)).toEqual({
      decision: "allow",
    });
    expect(fs.writes).toEqual([]);
  });

  it("allows at max_iterations (the state file's, not the config's) and says so", async () => {
    const fs = memoryFs({
      [STATE_PATH]: stateFile({ iteration: "20", max_iterations: "20" }),
      [PRD_PATH]: prdFile(STORIES),
    });
    const config = resolveConfig({ limits: { max_iterations: 100 } });
    const result = await handleStopHook(input, { ...fs, config });
    expect(result.decision).toBe("allow");
    expect(result.exit?.reason).toBe("max_iterations");
    expect(result.stderr).toBe(
      "ralph loop: stopping (max_iterations): iteration 20 of 20; allowing stop.",
    );
    expect(fs.writes).toEqual([]);
    const below = memoryFs({
      [STATE_PATH]: stateFile({ iteration: "19", max_iterations: "20" }),
      [PRD_PATH]: prdFile(STORIES),
    });
    expect((await handleStopHook(input, below)).decision).toBe("block");
  });

  it("allows when the agent's last answer says it is blocked", async () => {
    const answer = [
      "I cannot reach the database.",
      "---RALPH_STATUS---",
      "STATUS: BLOCKED",
      "EXIT_SIGNAL: false",
      "---END_RALPH_STATUS---",
    ].join("\n");
    const fs = memoryFs({
      [STATE_PATH]: stateFile(),
      [PRD_PATH]: prdFile(STORIES),
      [input.transcript_path as string]: [
        transcriptLine("user", "Build the todo API."),
        transcriptLine("assistant", answer),
      ].join("\n"),
    });
    const result = await handleStopHook(input, fs);
    expect(result.decision).toBe("allow");
    expect(result.exit?.reason).toBe("blocked");
    expect(result.stderr).toContain("stopping (blocked)");
    expect(fs.writes).toEqual([]);
  });

  it("asks a custom policy, as runLoop does", async () => {
    const fs = memoryFs({ [STATE_PATH]: stateFile(), [PRD_PATH]: prdFile(STORIES) });
    const result = await handleStopHook(input, {
      ...fs,
      policy: (policyInput, defaultPolicy) => {
        const decision = defaultPolicy(policyInput);
        return policyInput.iterations >= 1
          ? { ...decision, exit: true, reason: "budget_exhausted" }
          : decision;
      },
    });
    expect(result).toMatchObject({ decision: "allow", exit: { reason: "budget_exhausted" } });
    expect(fs.writes).toEqual([]);
  });

  it("allows when prd.json is missing or invalid, with stderr", async () => {
    const missing = await handleStopHook(input, memoryFs({ [STATE_PATH]: stateFile() }));
    expect(missing.decision).toBe("allow");
    expect(missing.stderr).toContain("not found");
    const invalid = await handleStopHook(
      input,
      memoryFs({ [STATE_PATH]: stateFile(), [PRD_PATH]: "{ not json" }),
    );
    expect(invalid.decision).toBe("allow");
    expect(invalid.stderr).toContain("is invalid");
  });

  it("allows when every story passes", async () => {
    const fs = memoryFs({
      [STATE_PATH]: stateFile(),
      [PRD_PATH]: prdFile(STORIES.map((story) => ({ ...story, passes: true }))),
    });
    const result = await handleStopHook(input, fs);
    expect(result.decision).toBe("allow");
    expect(result.exit?.reason).toBe("prd_complete");
    expect(result.stderr).toContain("3 of 3 stories pass");
    expect(fs.writes).toEqual([]);
  });

  it("blocks with the prompt and the next eligible story, advancing the iteration by one", async () => {
    const before = stateFile({ iteration: "3" });
    const fs = memoryFs({ [STATE_PATH]: before, [PRD_PATH]: prdFile(STORIES) });
    const result = await handleStopHook(input, fs);
    expect(result.decision).toBe("block");
    if (result.decision !== "block") return;
    expect(result.reason.startsWith(PROMPT)).toBe(true);
    expect(result.reason).toContain("Next story: S3 — List todos");
    expect(result.reason).toContain("- GET /todos works");
    expect(result.reason).not.toContain("S2");
    expect(result.reason).toContain("iteration 4 of 20");
    expect(result.exit).toMatchObject({ exit: false, reason: null });
    const after = before.replace("iteration: 3\n", "iteration: 4\n");
    expect(after).not.toBe(before);
    expect(result.stateText).toBe(after);
    expect(fs.writes).toEqual([[STATE_PATH, after]]);
    expect(parseRalphLoopState(after)).toMatchObject({ ok: true, state: { iteration: 4 } });
  });

  it("puts the user's unresolved concerns from the transcript in the reason", async () => {
    const transcript = [
      transcriptLine("user", "Build the todo API."),
      transcriptLine("assistant", "Done with the model."),
      transcriptLine("user", "The login is still failing on Safari."),
    ].join("\n");
    const fs = memoryFs({
      [STATE_PATH]: stateFile(),
      [PRD_PATH]: prdFile(STORIES),
      [input.transcript_path as string]: transcript,
    });
    const result = await handleStopHook(input, fs);
    expect(result.decision).toBe("block");
    if (result.decision !== "block") return;
    expect(result.reason).toContain("Unresolved concerns the user raised:");
    expect(result.reason).toContain("The login is still failing on Safari.");
  });

  it("uses a custom state path", async () => {
    const fs = memoryFs({ "/proj/loop.md": stateFile(), [PRD_PATH]: prdFile(STORIES) });
    const result = await handleStopHook(input, { ...fs, statePath: "loop.md" });
    expect(result.decision).toBe("block");
    expect(fs.writes.map(([path]) => path)).toEqual(["/proj/loop.md"]);
  });
});

describe("toHookOutput", () => {
  it("prints the block decision as JSON and nothing for allow", async () => {
    const fs = memoryFs({ [STATE_PATH]: stateFile(), [PRD_PATH]: prdFile(STORIES) });
    const block = await handleStopHook(input, fs);
    if (block.decision !== "block") throw new Error("expected a block");
    expect(JSON.parse(toHookOutput(block))).toEqual({ decision: "block", reason: block.reason });
    expect(toHookOutput({ decision: "allow", stderr: "x" })).toBe("");
  });
});

describe("handleStopHook and Claude Code's block cap", () => {
  const TRANSCRIPT = input.transcript_path as string;
  const feedback = (reason: string) =>
    JSON.stringify({
      type: "user",
      isMeta: true,
      message: { role: "user", content: `Stop hook feedback:\n${reason}` },
    });
  /** A turn the hook has blocked `blocks` times, as Claude Code writes it. */
  function blockedTurn(blocks: number): string {
    const lines = [transcriptLine("user", "Start the ralph loop.")];
    for (let block = 0; block <= blocks; block += 1) {
      if (block > 0) lines.push(feedback(`Ralph loop iteration ${block + 1} of 20.`));
      lines.push(transcriptLine("assistant", `Worked on S3, attempt ${block + 1}.`));
    }
    return `${lines.join("\n")}\n`;
  }
  const files = (transcript: string, iteration: number) =>
    memoryFs({
      [STATE_PATH]: stateFile({ iteration: String(iteration) }),
      [PRD_PATH]: prdFile(STORIES),
      [TRANSCRIPT]: transcript,
    });

  it("blocks while the turn is under the cap", async () => {
    const fs = files(blockedTurn(7), 8);
    const result = await handleStopHook(input, { ...fs, blockCap: 8 });
    expect(result.decision).toBe("block");
  });

  it("at the cap, lets the stop through itself, saying why and what to set", async () => {
    const fs = files(blockedTurn(8), 9);
    const result = await handleStopHook(input, { ...fs, blockCap: 8 });
    expect(result).toMatchObject({ decision: "allow", blockCap: { cap: 8, overridden: false } });
    expect(result.stderr).toContain("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=8");
    expect(result.stderr).toContain("iteration 9 of 20");
    expect(result.stderr).toContain("loop init --hook install");
    // The state file is not advanced: nothing ran.
    expect(fs.writes.filter(([path]) => path === STATE_PATH)).toEqual([]);
  });

  it("has no cap when none is given (Claude Code's cap turned off)", async () => {
    const fs = files(blockedTurn(30), 9);
    expect((await handleStopHook(input, { ...fs, blockCap: null })).decision).toBe("block");
  });

  it("reports an override Claude Code made that the hook did not foresee", async () => {
    const notice = JSON.stringify({
      type: "system",
      subtype: "informational",
      content:
        "A hook blocked the turn from ending 9 consecutive times—overriding and ending turn. For Stop/SubagentStop hooks, check stop_hook_active in the input and return success while it's true. Set CLAUDE_CODE_STOP_HOOK_BLOCK_CAP to raise this limit.",
    });
    const transcript = `${blockedTurn(8)}${notice}\n${transcriptLine("user", "continue")}\n${transcriptLine("assistant", "Back on S3.")}\n`;
    const fs = files(transcript, 10);
    const result = await handleStopHook(input, { ...fs, blockCap: 8 });
    expect(result.decision).toBe("block");
    expect(result.stderr).toContain("Claude Code overrode this hook after 9 blocks in a row");
  });

  it("a user quoting the notice is no override", async () => {
    const quoted = transcriptLine(
      "user",
      "Why did it say: A hook blocked the turn from ending 9 consecutive times?",
    );
    const fs = files(`${quoted}\n${transcriptLine("assistant", "Looking.")}\n`, 2);
    const result = await handleStopHook(input, { ...fs, blockCap: 8 });
    expect(result.stderr ?? "").not.toContain("overrode");
  });
});

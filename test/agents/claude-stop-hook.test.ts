import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { parseClaudeTranscript } from "@loop/core";
import { describe, expect, it } from "vitest";
import { LOOP_BIN } from "../cli/support.js";
import { lastUserText, type RecordedRequest, type Reply } from "./stand-ins/anthropic-api.js";
import { agentBinary, pinnedVersions } from "./support/agent-binaries.js";
import { answeredTool } from "./support/answered-tool.js";
import { claudeEnvironment } from "./support/claude-environment.js";
import { useClaudeTestBed } from "./support/claude-test-bed.js";
import { runProcess } from "./support/run-process.js";

// The in-session Stop-hook loop with the real Claude Code: `loop init --hook install` writes the
// settings, the ralph-loop state file starts the loop, and `claude -p` runs one session in which
// the real CLI calls the real `loop hook stop` at every stop. `loop` is not on PATH (at most an
// alias, which the hook shell does not see), as for a user who only cloned the repository.

const PRD_PATH = "prd.json";
const STATE_PATH = ".claude/ralph-loop.local.md";

function prd(stories: number): string {
  const list = Array.from({ length: stories }, (_, index) => ({
    id: `S${index + 1}`,
    title: `Story ${index + 1}`,
    passes: false,
  }));
  return `${JSON.stringify({ project: "demo", stories: list, completedStories: 0 }, null, 2)}\n`;
}

function ralphState(sessionId: string, maxIterations: number): string {
  return [
    "---",
    "active: true",
    "iteration: 1",
    `session_id: ${sessionId}`,
    `max_iterations: ${maxIterations}`,
    `prd_path: ${PRD_PATH}`,
    `started_at: "${new Date().toISOString()}"`,
    "---",
    "",
    `Read ${PRD_PATH}. Find the first story where passes is false, implement it, set passes: true.`,
    "",
  ].join("\n");
}

/**
 * An agent that, each iteration, reads prd.json and marks its first failing story as passing
 * (Claude Code writes a file only after reading it), then says so.
 */
function storyAgent(project: string): (request: RecordedRequest) => Reply {
  const path = join(project, PRD_PATH);
  return (request) => {
    const answered = answeredTool(request);
    if (answered === "Write") return { text: "Marked the story as passing." };
    if (answered !== "Read") {
      return {
        text: "Reading the stories.",
        tools: [{ name: "Read", input: { file_path: path } }],
      };
    }
    const document = JSON.parse(readFileSync(path, "utf8")) as {
      stories: { passes: boolean }[];
    };
    const next = document.stories.find((story) => !story.passes);
    if (next !== undefined) next.passes = true;
    return {
      text: "Implementing the next story.",
      tools: [
        {
          name: "Write",
          input: { file_path: path, content: `${JSON.stringify(document, null, 2)}\n` },
        },
      ],
    };
  };
}

describe.each(pinnedVersions("claude"))("the Stop-hook loop on Claude Code %s", (version) => {
  const claude = agentBinary("claude", version);
  const bed = useClaudeTestBed({ "README.md": "# demo\n" });
  const sessionId = randomUUID();

  async function environment(script: (request: RecordedRequest) => Reply) {
    const standIn = await bed.startStandIn({ script });
    // PATH without `loop`: the hook must work for a user whose `loop` is an alias at most.
    return claudeEnvironment({ baseUrl: standIn.url, home: bed.home });
  }

  async function loopInit(env: Record<string, string>, args: readonly string[] = []) {
    const init = await runProcess(
      process.execPath,
      [LOOP_BIN, "init", "--hook", "install", ...args],
      { cwd: bed.project, env },
    );
    expect(init.code, init.stderr).toBe(0);
  }

  async function startLoop(
    stories: number,
    maxIterations: number,
    prompt = "Start the ralph loop.",
  ) {
    await writeFile(join(bed.project, STATE_PATH), ralphState(sessionId, maxIterations));
    await mkdir(dirname(join(bed.project, PRD_PATH)), { recursive: true });
    await writeFile(join(bed.project, PRD_PATH), prd(stories));
    const env = claudeEnvironment({ baseUrl: bed.standIn?.url ?? "", home: bed.home });
    return runProcess(
      claude.path,
      [
        "-p",
        prompt,
        "--session-id",
        sessionId,
        "--output-format",
        "stream-json",
        "--verbose",
        "--permission-mode",
        "acceptEdits",
      ],
      { cwd: bed.project, env, timeoutMs: 240_000 },
    );
  }

  const iterationOf = async () =>
    Number(/^iteration: (\d+)$/m.exec(await readFile(join(bed.project, STATE_PATH), "utf8"))?.[1]);
  const passing = async () =>
    (
      JSON.parse(await readFile(join(bed.project, PRD_PATH), "utf8")) as {
        stories: { passes: boolean }[];
      }
    ).stories.filter((story) => story.passes).length;
  const loopState = async () =>
    JSON.parse(
      await readFile(
        join(bed.project, ".claude/loop/state/terminals", `ralph-${sessionId}`, "loop_state.json"),
        "utf8",
      ),
    ) as Record<string, unknown>;

  it("runs all 20 iterations after `loop init --hook install`, past Claude Code's cap of 8 blocks", async () => {
    const env = await environment(storyAgent(bed.project));
    await loopInit(env);
    const settings = JSON.parse(await readFile(join(bed.project, ".claude/settings.json"), "utf8"));
    expect(settings.env).toEqual({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "20" });

    const session = await startLoop(25, 20);
    expect(session.code, session.stderr).toBe(0);
    expect(session.stdout).not.toContain("A hook blocked the turn from ending");
    expect(await iterationOf()).toBe(20);
    expect(await passing()).toBe(20);
    expect((await loopState()).stop_hook_block_cap).toBeUndefined();
  });

  it("without the raised cap, the hook stops at Claude Code's cap itself and records it", async () => {
    const env = await environment(storyAgent(bed.project));
    await loopInit(env);
    const path = join(bed.project, ".claude/settings.json");
    const { env: _cap, ...withoutCap } = JSON.parse(await readFile(path, "utf8"));
    await writeFile(path, JSON.stringify(withoutCap));

    const session = await startLoop(25, 20);
    expect(session.code, session.stderr).toBe(0);
    expect(session.stdout).not.toContain("A hook blocked the turn from ending");
    // 8 blocks: iterations 1 to 9 ran, and the hook let the ninth stop through.
    expect(await iterationOf()).toBe(9);
    expect(await passing()).toBe(9);
    expect((await loopState()).stop_hook_block_cap).toMatchObject({
      cap: 8,
      iteration: 9,
      overridden: false,
    });
  });

  it("the lookback advances with the iterations: the first prompt's concern is not repeated forever", async () => {
    const env = await environment(storyAgent(bed.project));
    await loopInit(env);
    const config = join(bed.project, ".claude/loop/config.yaml");
    await writeFile(config, "verification:\n  lookback_turns: 3\n");

    const session = await startLoop(
      10,
      6,
      "Start the ralph loop. The login is still failing on Safari.",
    );
    expect(session.code, session.stderr).toBe(0);
    expect(await iterationOf()).toBe(6);
    // What the hook told Claude at each block reaches the model as the turn's new message.
    const reasons = (bed.standIn?.scriptedRequests() ?? [])
      .map(lastUserText)
      .filter((text) => /Ralph loop iteration \d+ of 6/.test(text));
    const concernAt = (iteration: number) =>
      reasons
        .filter((text) => text.includes(`Ralph loop iteration ${iteration} of 6`))
        .some((text) => text.includes("still failing on Safari"));
    expect(reasons.length).toBeGreaterThanOrEqual(5);
    expect(concernAt(2)).toBe(true);
    expect(concernAt(3)).toBe(true);
    expect(concernAt(5)).toBe(false);
    expect(concernAt(6)).toBe(false);
  });

  it("a compaction summary in the real transcript is not read as the user's words", async () => {
    const summary =
      "<summary>The user said the login is still failing on Safari and this is wrong.</summary>";
    const standIn = await bed.startStandIn({
      script: () => ({ text: summary }),
      sideReply: { text: summary },
    });
    const env = claudeEnvironment({ baseUrl: standIn.url, home: bed.home });
    const common = ["--output-format", "stream-json", "--verbose"];
    const first = await runProcess(
      claude.path,
      ["-p", "Add a README.", "--session-id", sessionId, ...common],
      { cwd: bed.project, env },
    );
    expect(first.code, first.stderr).toBe(0);
    // Claude Code 2.1.197 compacts nothing shorter than two exchanges.
    const second = await runProcess(
      claude.path,
      ["-p", "And a licence.", "--resume", sessionId, ...common],
      { cwd: bed.project, env },
    );
    expect(second.code, second.stderr).toBe(0);
    const compact = await runProcess(
      claude.path,
      ["-p", "/compact", "--resume", sessionId, ...common],
      {
        cwd: bed.project,
        env,
      },
    );
    expect(compact.code, compact.stderr).toBe(0);
    const folder = join(bed.home, ".claude/projects", bed.project.replace(/[^A-Za-z0-9]/g, "-"));
    const transcript = await readFile(join(folder, `${sessionId}.jsonl`), "utf8");
    expect(transcript).toContain('"isCompactSummary":true');
    const reasons: string[] = [];
    const turns = parseClaudeTranscript(transcript, {
      onSkippedLine: (line) => reasons.push(line.reason),
    });
    expect(reasons).toContain("compact-summary");
    expect(turns.filter((turn) => turn.role === "user").map((turn) => turn.text)).toEqual([
      "Add a README.",
      "And a licence.",
    ]);
  });
});

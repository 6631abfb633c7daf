import { appendFile, copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestProject, type TestProject } from "./support.js";

// `loop hook stop`, run as Claude Code runs it: the built binary, the recorded hook input on
// stdin, the ralph-loop skill's state file and prd.json in a throwaway project.

const fixtures = (name: string) => new URL(`../fixtures/hook/${name}`, import.meta.url);

const STATE_FILE = ".claude/ralph-loop.local.md";
const PRD = ".claude/plugin/ralph/prd.json";
const TRANSCRIPT = "transcript.jsonl";
const SESSION = "8f2c7a1e-4b3d-4e5f-9a6b-1c2d3e4f5a6b";

let project: TestProject;

const at = (path: string) => join(project.dir, path);
const read = (path: string) => readFile(at(path), "utf8");

async function write(path: string, text: string): Promise<void> {
  await mkdir(dirname(at(path)), { recursive: true });
  await writeFile(at(path), text);
}

/** The recorded Stop input, pointed at the test project and its transcript. */
async function hookInput(fields: Record<string, unknown> = {}): Promise<string> {
  const recorded = JSON.parse(await readFile(fixtures("stop-input.json"), "utf8"));
  return JSON.stringify({
    ...recorded,
    cwd: project.dir,
    transcript_path: at(TRANSCRIPT),
    ...fields,
  });
}

async function stop(fields: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  return project.run(["hook", "stop"], { input: await hookInput(fields), env });
}

/** The prd.json fixture with every story passing. */
async function allPassing(): Promise<string> {
  const prd = JSON.parse(await readFile(fixtures("prd.json"), "utf8"));
  for (const story of prd.stories) story.passes = true;
  return JSON.stringify(prd, null, 2);
}

beforeEach(async () => {
  project = await createTestProject();
  await mkdir(dirname(at(PRD)), { recursive: true });
  await copyFile(fixtures("ralph-loop.local.md"), at(STATE_FILE));
  await copyFile(fixtures("prd.json"), at(PRD));
  await copyFile(fixtures("transcript.jsonl"), at(TRANSCRIPT));
});

afterEach(async () => {
  await project.remove();
});

describe("loop hook stop", { timeout: 60_000 }, () => {
  it("blocks with the next story while stories fail, and advances the iteration", async () => {
    const before = await read(STATE_FILE);
    const run = await stop();
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const output = JSON.parse(run.stdout);
    expect(Object.keys(output)).toEqual(["decision", "reason"]);
    expect(output.decision).toBe("block");
    expect(output.reason).toMatch(/^Read \.claude\/plugin\/ralph\/prd\.json\./);
    expect(output.reason).toContain("Ralph loop iteration 2 of 20.");
    expect(output.reason).toContain("Next story: S2 — List todos");
    expect(output.reason).toContain("Verification: npm test -- list-todos");
    expect(await read(STATE_FILE)).toBe(before.replace("iteration: 1\n", "iteration: 2\n"));
  });

  it("keeps attempts in the state store across stops and moves on after tasks.max_attempts", async () => {
    const reasons: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const run = await stop();
      expect(run.code).toBe(0);
      reasons.push(JSON.parse(run.stdout).reason);
    }
    expect(reasons[0]).not.toContain("Attempt");
    expect(reasons[1]).toContain("Attempt 2 of 3.");
    expect(reasons[2]).toContain("Attempt 3 of 3.");
    const stored = JSON.parse(
      await readFile(
        join(project.stateDir, "terminals", `ralph-${SESSION}`, "loop_state.json"),
        "utf8",
      ),
    );
    expect(stored.session_id).toBe(SESSION);
    // S2 made no progress for three stops: given up; S3 depends on it, so nothing can run.
    const fourth = await stop();
    expect(fourth.code).toBe(0);
    expect(fourth.stdout).toBe("");
    expect(fourth.stderr).toContain("stopping (no_runnable_tasks)");
    expect(await read(STATE_FILE)).toContain("iteration: 4\n");
  });

  it("counts an iteration with edits as progress: the attempt count does not grow", async () => {
    await stop();
    const edit = {
      type: "assistant",
      message: {
        role: "assistant",
        content: [
          { type: "text", text: "Adding the list endpoint." },
          {
            type: "tool_use",
            id: "toolu_02",
            name: "Edit",
            input: { file_path: at("src/list.ts") },
          },
        ],
      },
    };
    await appendFile(at(TRANSCRIPT), `${JSON.stringify(edit)}\n`);
    const second = await stop();
    expect(JSON.parse(second.stdout).reason).not.toContain("Attempt 2");
  });

  it("puts the user's unresolved concerns from the transcript in the reason", async () => {
    const concern = {
      type: "user",
      message: { role: "user", content: "This is wrong: the tests fail." },
    };
    await appendFile(at(TRANSCRIPT), `${JSON.stringify(concern)}\n`);
    const run = await stop();
    expect(JSON.parse(run.stdout).reason).toContain("Unresolved concerns the user raised:");
  });

  it("allows the stop, printing nothing on stdout, when every story passes", async () => {
    await write(PRD, await allPassing());
    const before = await read(STATE_FILE);
    const run = await stop();
    expect(run).toMatchObject({ code: 0, stdout: "" });
    expect(run.stderr).toContain("stopping (prd_complete)");
    expect(await read(STATE_FILE)).toBe(before);
  });

  it("allows silently in another session, or without a state file", async () => {
    const before = await read(STATE_FILE);
    expect(await stop({ session_id: "another-session" })).toMatchObject({
      code: 0,
      stdout: "",
      stderr: "",
    });
    expect(await read(STATE_FILE)).toBe(before);
    await rm(at(STATE_FILE));
    expect(await stop()).toMatchObject({ code: 0, stdout: "", stderr: "" });
  });

  it("allows a malformed state file, saying why on stderr", async () => {
    await write(STATE_FILE, (await read(STATE_FILE)).replace("iteration: 1", "iteration: one"));
    const run = await stop();
    expect(run).toMatchObject({ code: 0, stdout: "" });
    expect(run.stderr).toContain("is malformed; allowing stop.");
    expect(run.stderr).toContain("line 3: 'iteration' must be an integer");
  });

  it("allows at the state file's max_iterations", async () => {
    await write(STATE_FILE, (await read(STATE_FILE)).replace("iteration: 1", "iteration: 20"));
    const run = await stop();
    expect(run).toMatchObject({ code: 0, stdout: "" });
    expect(run.stderr).toContain("stopping (max_iterations)");
  });

  it.each([
    ["garbage", "the input is not JSON"],
    ["", "no input"],
    ['{"cwd":"/tmp"}', '"session_id" must be a non-empty string'],
    ['{"session_id":"s","cwd":"/tmp","hook_event_name":"SubagentStop"}', "Stop event only"],
  ])("allows the stop for unusable input %j, explaining on stderr", async (input, message) => {
    const run = await project.run(["hook", "stop"], { input });
    expect(run).toMatchObject({ code: 0, stdout: "" });
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain("allowing the stop");
  });

  it("allows the stop for an invalid config, naming the problem's position", async () => {
    await write(".claude/loop/config.yaml", "tasks:\n  max_atempts: 2\n");
    const run = await stop();
    expect(run).toMatchObject({ code: 0, stdout: "" });
    expect(run.stderr).toMatch(/config\.yaml:2:3 tasks\.max_atempts: unknown key/);
    expect(run.stderr).toContain("allowing the stop");
  });

  it("reads the project's config: tasks.max_attempts", async () => {
    await write(".claude/loop/config.yaml", "tasks:\n  max_attempts: 1\n");
    const first = await stop();
    expect(JSON.parse(first.stdout).decision).toBe("block");
    const second = await stop();
    expect(second.stdout).toBe("");
    expect(second.stderr).toContain("stopping (no_runnable_tasks)");
  });

  it("finds the project from CLAUDE_PROJECT_DIR when the input's cwd is a subfolder", async () => {
    await mkdir(at("src"), { recursive: true });
    const lost = await stop({ cwd: at("src") });
    expect(lost.stdout).toBe("");
    const found = await stop({ cwd: at("src") }, { CLAUDE_PROJECT_DIR: project.dir });
    expect(JSON.parse(found.stdout).decision).toBe("block");
  });

  it("keeps state under --state-dir when given", async () => {
    const run = await project.run(["hook", "stop", "--state-dir", "custom-state"], {
      input: await hookInput(),
    });
    expect(JSON.parse(run.stdout).decision).toBe("block");
    const stored = at(`custom-state/terminals/ralph-${SESSION}/loop_state.json`);
    expect(JSON.parse(await readFile(stored, "utf8")).session_id).toBe(SESSION);
  });

  it("lists the hooks for a missing or unknown one, without exit code 2 when piped", async () => {
    for (const args of [["hook"], ["hook", "Stop"]]) {
      const run = await project.run(args, { input: await hookInput() });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(/Hooks:\n {2}stop {2}the ralph loop's Stop hook/);
    }
  });
});

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type GeminiExecutorOptions, geminiExecutor } from "@loop/exec";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { runCliProcess } from "../cli/support.js";
import { executionRequest } from "../support/execution-request.js";
import { initGitRepository } from "../support/git-repository.js";
import {
  GEMINI_OFFLINE_SETTINGS,
  type GeminiReply,
  type GeminiReplyFunction,
  type GeminiStandIn,
  httpErrorReply,
  offlineGuardEnvironment,
  readNetworkAttempts,
  replaceReply,
  shellCommandReply,
  startGeminiStandIn,
  textReply,
  userTexts,
  writeFileReply,
} from "./stand-ins/gemini-api.js";
import { type AgentBinary, agentBinary } from "./support/agent-binaries.js";
import { type TempFolder, tempFolder } from "./support/temp-folder.js";

// The real Gemini CLI (test/agents/agent-versions.json) driven by the `geminiExecutor` preset and
// by `loop run --executor gemini`, offline: a local stand-in of the Gemini API answers, HOME is a
// temp folder (API-key auth, no telemetry, no usage statistics, no update checks), and every
// project is a fresh git repository gemini has never trusted. Every Node process of a run records
// any host it tries that is not loopback; each test ends by checking there was none.

let gemini: AgentBinary;
let sandbox: Sandbox | undefined;

beforeAll(() => {
  gemini = agentBinary("gemini"); // throws (the tests fail) when it is not installed
});

afterEach(async () => {
  const current = sandbox;
  sandbox = undefined;
  if (current === undefined) return;
  try {
    expect(await readNetworkAttempts(current.networkLog), "hosts other than 127.0.0.1").toEqual([]);
    const unscripted = current.standIn.requests.filter((request) => request.role === "unscripted");
    expect(unscripted.map((request) => request.path)).toEqual([]);
    // The preset trusts the folder for the run only: it writes nothing into the user's home.
    expect(existsSync(join(current.home, ".gemini", "trustedFolders.json"))).toBe(false);
  } finally {
    await current.standIn.close();
    await current.root.remove();
  }
});

/** A temp HOME, a fresh git repository and a stand-in with its script. */
interface Sandbox {
  readonly root: TempFolder;
  readonly home: string;
  readonly project: string;
  readonly networkLog: string;
  readonly standIn: GeminiStandIn;
  /** The complete environment of gemini (or of `loop`, which passes it on). */
  readonly env: Record<string, string>;
}

/** The stand-in's script, or a function of the project folder that gives it. */
type Script =
  | readonly (GeminiReply | GeminiReplyFunction)[]
  | ((project: string) => readonly (GeminiReply | GeminiReplyFunction)[]);

async function createSandbox(script: Script, extraEnv: Record<string, string> = {}) {
  const root = await tempFolder("gemini");
  const home = join(root.path, "home");
  const project = join(root.path, "project");
  const temporary = join(root.path, "tmp"); // gemini writes its error reports to the temp folder
  await mkdir(join(home, ".gemini"), { recursive: true });
  await mkdir(project);
  await mkdir(temporary);
  await writeFile(join(home, ".gemini", "settings.json"), JSON.stringify(GEMINI_OFFLINE_SETTINGS));
  const replies = typeof script === "function" ? script(project) : script;
  const standIn = await startGeminiStandIn({ replies });
  const networkLog = join(root.path, "network.log");
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    TMPDIR: temporary,
    GEMINI_API_KEY: "stand-in-key",
    GOOGLE_GEMINI_BASE_URL: standIn.url,
    ...offlineGuardEnvironment(networkLog),
    ...extraEnv,
  };
  const created: Sandbox = { root, home, project, networkLog, standIn, env };
  sandbox = created;
  // git with the test's HOME: no settings of the user's.
  await initGitRepository(
    project,
    { "README.md": "# A project\n" },
    { PATH: env.PATH, HOME: home },
  );
  return created;
}

async function runPreset(where: Sandbox, prompt: string, options: GeminiExecutorOptions = {}) {
  const executor = geminiExecutor({
    ...options,
    command: gemini.path,
    cwd: where.project,
    env: where.env,
    timeoutMs: 90_000,
  });
  return executor.execute(executionRequest({ prompt }), { signal: AbortSignal.timeout(100_000) });
}

const conversation = (where: Sandbox) =>
  where.standIn.requests.filter((item) => item.role === "conversation");

/** The names of the tools the CLI offered the model in its first conversation request. */
function offeredTools(where: Sandbox): readonly string[] {
  const body = conversation(where)[0]?.body as
    | { tools?: { functionDeclarations?: { name: string }[] }[] }
    | undefined;
  return (body?.tools ?? []).flatMap((tool) =>
    (tool.functionDeclarations ?? []).map((f) => f.name),
  );
}

describe("geminiExecutor with the real Gemini CLI", () => {
  it("writes a file with write_file in a folder gemini has never trusted", async () => {
    const where = await createSandbox((project) => [
      writeFileReply(join(project, "notes", "hello.txt"), "hello from gemini\n"),
      textReply("Wrote notes/hello.txt."),
    ]);
    const target = join(where.project, "notes", "hello.txt");
    const result = await runPreset(where, "Write notes/hello.txt.");

    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({ success: true, output: "Wrote notes/hello.txt.\n" });
    expect(readFileSync(target, "utf8")).toBe("hello from gemini\n");
    expect(offeredTools(where)).toEqual(
      expect.arrayContaining(["write_file", "replace", "run_shell_command"]),
    );
    // The CLI ran the tool and sent its result back in the next turn.
    expect(JSON.stringify(conversation(where)[1]?.body)).toContain('"functionResponse"');
    expect(where.standIn.remainingReplies()).toBe(0);
  });

  it("runs shell commands (the agent can run the tests) with the default approval mode", async () => {
    const where = await createSandbox([
      shellCommandReply("git rev-parse --is-inside-work-tree > inside.txt", "check the repo"),
      textReply("Checked."),
    ]);
    const result = await runPreset(where, "Check that this is a git repository.");
    expect(result).toMatchObject({ success: true, output: "Checked.\n" });
    expect(readFileSync(join(where.project, "inside.txt"), "utf8")).toBe("true\n");
  });

  it("without trusting the folder, gemini stops with exit 55 and the error says what to do", async () => {
    const where = await createSandbox([writeFileReply("hello.txt", "never written\n")]);
    const result = await runPreset(where, "Write hello.txt.", { trustWorkspace: false });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^gemini does not trust the working folder.*\(exit 55\)/);
    expect(result.error).toContain("`trustWorkspace: true`");
    expect(result.error).toContain(
      "gemini said: Gemini CLI is not running in a trusted directory.",
    );
    expect(where.standIn.requests).toEqual([]);
    expect(existsSync(join(where.project, "hello.txt"))).toBe(false);
  });

  it('with approval mode "default" the write is refused and the run fails, though gemini exits 0', async () => {
    const where = await createSandbox([
      writeFileReply("hello.txt", "never written\n"),
      textReply("Wrote hello.txt."),
    ]);
    const result = await runPreset(where, "Write hello.txt.", { approvalMode: "default" });
    expect(result.success).toBe(false);
    expect(result.error).toContain(
      'gemini\'s model called write_file, which approval mode "default" leaves out',
    );
    expect(result.error).toContain('Tool "write_file" not found');
    expect(offeredTools(where)).not.toContain("write_file");
    expect(existsSync(join(where.project, "hello.txt"))).toBe(false);
  });

  it("takes an approval mode from the extra arguments instead of its own", async () => {
    const where = await createSandbox((project) => [
      writeFileReply(join(project, "hello.txt"), "edited\n"),
      textReply("Edited."),
    ]);
    const result = await runPreset(where, "Edit.", { extraArgs: ["--approval-mode", "auto_edit"] });
    expect(result).toMatchObject({ success: true, output: "Edited.\n" });
    expect(readFileSync(join(where.project, "hello.txt"), "utf8")).toBe("edited\n");
    expect(offeredTools(where)).toContain("write_file");
    expect(offeredTools(where)).not.toContain("run_shell_command");
  });

  for (const prompt of [
    "---\ntitle: The plan\n---\n\n# Iteration 1\n\nDo TASK-001.\n",
    "-x is not a flag: do TASK-001.",
  ]) {
    it(`delivers the prompt ${JSON.stringify(prompt.slice(0, 6))}… to the model as the prompt`, async () => {
      const where = await createSandbox([textReply("Understood.")]);
      const result = await runPreset(where, prompt);
      expect(result).toMatchObject({ success: true, output: "Understood.\n" });
      const [first] = conversation(where);
      expect(first).toBeDefined();
      if (first === undefined) return;
      expect(userTexts(first)).toContain(prompt);
    });
  }

  it("an API key the API refuses (400) fails the run with the API's message", async () => {
    const where = await createSandbox([
      httpErrorReply(400, "API key not valid. Please pass a valid API key.", "INVALID_ARGUMENT"),
    ]);
    const result = await runPreset(where, "Say hello.");
    expect(result).toMatchObject({
      success: false,
      error:
        "gemini: the Gemini API refused the request: 400 INVALID_ARGUMENT: API key not valid. Please pass a valid API key.",
    });
    expect(conversation(where)[0]?.headers["x-goog-api-key"]).toBe("stand-in-key");
  });

  it("an exhausted quota (429) fails the run with the status and the quota message", async () => {
    const quota =
      "You exceeded your current quota, please check your plan and billing details. Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0";
    const where = await createSandbox([httpErrorReply(429, quota, "RESOURCE_EXHAUSTED")]);
    const result = await runPreset(where, "Say hello.");
    expect(result.success).toBe(false);
    expect(result.error).toBe(
      `gemini: the Gemini API refused the request: 429 (TerminalQuotaError): ${quota}`,
    );
  });
});

const PLAN = `# Plan: greet the world

## RALPH_STATUS

- EXIT_SIGNAL: false
- completion_indicators: 0
- current_task: TASK-001

## Tasks

- [ ] TASK-001 Write hello.txt
- [ ] TASK-002 Write bye.txt
`;

/** The answer of one iteration, ending with the loop's status block. */
function statusAnswer(done: string, finished: boolean): GeminiReply {
  return textReply(
    [
      `Did ${done}.`,
      "",
      "---RALPH_STATUS---",
      `STATUS: ${finished ? "COMPLETE" : "IN_PROGRESS"}`,
      "TASKS_COMPLETED_THIS_LOOP: 1",
      "FILES_MODIFIED: 2",
      "TESTS_STATUS: PASSING",
      "WORK_TYPE: IMPLEMENTATION",
      `EXIT_SIGNAL: ${finished}`,
      `RECOMMENDATION: ${finished ? "All tasks are done." : "Do TASK-002."}`,
      "---END_RALPH_STATUS---",
    ].join("\n"),
  );
}

describe("loop run --executor gemini with the real Gemini CLI", () => {
  it("runs the plan to all_tasks_complete, gemini checking the boxes", async () => {
    const where = await createSandbox(
      (project) => [
        writeFileReply(join(project, "hello.txt"), "hello\n"),
        replaceReply(join(project, "plan.md"), "- [ ] TASK-001", "- [x] TASK-001"),
        statusAnswer("TASK-001", false),
        writeFileReply(join(project, "bye.txt"), "bye\n"),
        replaceReply(join(project, "plan.md"), "- [ ] TASK-002", "- [x] TASK-002"),
        replaceReply(join(project, "plan.md"), "EXIT_SIGNAL: false", "EXIT_SIGNAL: true"),
        statusAnswer("TASK-002", true),
      ],
      { LOOP_TERMINAL_ID: "test-terminal", NO_COLOR: "1" },
    );
    const plan = join(where.project, "plan.md");
    const env = { ...where.env, LOOP_STATE_DIR: join(where.root.path, "state") };
    const loop = (args: readonly string[]) =>
      runCliProcess(args, where.project, env, { timeoutMs: 100_000 });

    const init = await loop(["init"]);
    expect(init.code, init.stderr).toBe(0);
    await writeFile(plan, PLAN);
    const validate = await loop(["validate"]);
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);

    const run = await loop(["run", "--executor", "gemini", "--bin", gemini.path]);

    expect(run.stderr, run.stderr).toContain("exit: all_tasks_complete after 2 iterations");
    expect(run.code, run.stderr).toBe(0);
    const finalPlan = readFileSync(plan, "utf8");
    expect(finalPlan).toContain("- [x] TASK-001 Write hello.txt");
    expect(finalPlan).toContain("- [x] TASK-002 Write bye.txt");
    expect(readFileSync(join(where.project, "hello.txt"), "utf8")).toBe("hello\n");
    expect(readFileSync(join(where.project, "bye.txt"), "utf8")).toBe("bye\n");
    expect(where.standIn.remainingReplies()).toBe(0);
    // Each iteration's prompt reached gemini as the prompt, naming its task.
    const prompts = conversation(where).flatMap((item) => userTexts(item));
    expect(prompts.some((text) => text.includes("Your task is `TASK-001`"))).toBe(true);
    expect(prompts.some((text) => text.includes("Your task is `TASK-002`"))).toBe(true);
  });
});

/** The parts of a Gemini request's conversation, newest last. */
type Part = { text?: string; functionResponse?: { name?: string } };

/**
 * A parallel run's agent, whichever of the two gemini processes asks: it reads its task and
 * its plan (in its worktree) from the loop's prompt, writes `src/<task>.txt` beside that plan,
 * checks its task's box there, then answers with a status block.
 */
const worktreeAgent: GeminiReplyFunction = (body) => {
  const contents = (body as { contents?: { parts?: Part[] }[] } | undefined)?.contents ?? [];
  const parts = contents.flatMap((content) => content.parts ?? []);
  const prompt = parts.map((part) => part.text ?? "").join("\n");
  const task = /Your task is `([^`]+)`/.exec(prompt)?.[1];
  const plan = /The plan is `([^`]+)`/.exec(prompt)?.[1];
  if (task === undefined || plan === undefined) return textReply("No task named.");
  const answered = parts.at(-1)?.functionResponse?.name;
  if (answered === undefined) {
    return writeFileReply(join(dirname(plan), "src", `${task}.txt`), `${task} works\n`);
  }
  if (answered === "write_file") return replaceReply(plan, `- [ ] ${task}`, `- [x] ${task}`);
  return textReply(
    [
      `Did ${task}.`,
      "---RALPH_STATUS---",
      "STATUS: IN_PROGRESS",
      "TASKS_COMPLETED_THIS_LOOP: 1",
      "FILES_MODIFIED: 1",
      "TESTS_STATUS: PASSING",
      "WORK_TYPE: IMPLEMENTATION",
      "EXIT_SIGNAL: false",
      "RECOMMENDATION: Continue with the next task.",
      "---END_RALPH_STATUS---",
    ].join("\n"),
  );
};

describe("loop run --parallel 2 --executor gemini with the real Gemini CLI", () => {
  it("runs each task's gemini in its own worktree and merges both tasks' work", async () => {
    const where = await createSandbox(
      Array.from({ length: 30 }, () => worktreeAgent),
      {
        NO_COLOR: "1",
      },
    );
    const git = (...args: string[]) =>
      execFileSync("git", args, {
        cwd: where.project,
        encoding: "utf8",
        env: { PATH: where.env.PATH, HOME: where.home },
      }).trim();
    await writeFile(
      join(where.project, "plan.md"),
      "# Plan\n\n## Modules (parallel)\n\n- [ ] TASK-001 Add a greeting module\n- [ ] TASK-002 Add a farewell module\n",
    );
    git("add", "plan.md");
    git("-c", "user.name=A User", "-c", "user.email=user@example.test", "commit", "-qm", "plan");
    const run = await runCliProcess(
      ["run", "--parallel", "2", "--executor", "gemini", "--bin", gemini.path],
      where.project,
      where.env,
      { timeoutMs: 150_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(git("ls-tree", "--name-only", "HEAD", "src/").split("\n")).toEqual([
      "src/TASK-001.txt",
      "src/TASK-002.txt",
    ]);
    expect(git("show", "HEAD:src/TASK-002.txt")).toBe("TASK-002 works");
    const plan = readFileSync(join(where.project, "plan.md"), "utf8");
    expect(plan).toContain("- [x] TASK-001");
    expect(plan).toContain("- [x] TASK-002");
    // Each task's prompt named the plan copy in its own worktree.
    const plans = new Set(
      conversation(where)
        .flatMap((item) => userTexts(item))
        .flatMap((text) => [...text.matchAll(/The plan is `([^`]+)`/g)].map((match) => match[1])),
    );
    const copies = [...plans].filter((path) => path !== join(where.project, "plan.md"));
    expect(copies).toHaveLength(2);
    for (const copy of copies) expect(copy).toContain(join(where.project, ".loop", "worktrees"));
  });
});

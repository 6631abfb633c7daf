import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type CodexExecutorOptions, codexExecutor, gitProgress } from "@loop/exec";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { runCliProcess } from "../cli/support.js";
import { executionRequest } from "../support/execution-request.js";
import { initGitRepository } from "../support/git-repository.js";
import {
  codexConfigToml,
  functionCallOutputs,
  type OpenAiResponsesStandIn,
  type RecordedRequest,
  type ReplyFunction,
  type ScriptedReply,
  startOpenAiResponsesStandIn,
  userMessageTexts,
} from "./stand-ins/openai-responses-api.js";
import { type AgentBinary, agentBinary } from "./support/agent-binaries.js";
import { type TempFolder, tempFolder } from "./support/temp-folder.js";

// The real Codex CLI, through the `codexExecutor` preset and through `loop run --executor codex`,
// against a local stand-in of the OpenAI Responses API: offline, in a throwaway git repository,
// with its own HOME and CODEX_HOME. Every proxy variable points at the stand-in, so a connection
// to any other host would reach it as `CONNECT host:443`, be refused, and fail the test.

const API_KEY_VARIABLE = "STAND_IN_OPENAI_API_KEY";
/** A safety net for one Codex run; a run takes about a second. */
const RUN_TIMEOUT_MS = 60_000;

let codex: AgentBinary;
let standIn: OpenAiResponsesStandIn | undefined;
let root: TempFolder | undefined;

beforeAll(() => {
  codex = agentBinary("codex");
});

afterEach(async () => {
  const stray = standIn?.strayRequests.map((request) => `${request.method} ${request.url}`);
  await standIn?.close();
  standIn = undefined;
  await root?.remove();
  root = undefined;
  expect(stray, "Codex tried to reach a host other than the stand-in").toEqual([]);
});

/** A temporary HOME, CODEX_HOME and git repository, and the stand-in serving `replies`. */
interface Sandbox {
  readonly project: string;
  readonly stateDir: string;
  /** The complete environment of Codex (or of `loop`, which passes it on). */
  readonly env: Record<string, string>;
  readonly standIn: OpenAiResponsesStandIn;
}

async function setUp(replies: readonly (ScriptedReply | ReplyFunction)[]): Promise<Sandbox> {
  root = await tempFolder("codex");
  const home = join(root.path, "home");
  const codexHome = join(root.path, "codex-home");
  const project = join(root.path, "project");
  await Promise.all([home, codexHome, project].map((dir) => mkdir(dir)));
  standIn = await startOpenAiResponsesStandIn({ replies });
  await writeFile(join(codexHome, "config.toml"), codexConfigToml(standIn.url, API_KEY_VARIABLE));
  await initGitRepository(project, { "README.md": "# A project\n" });
  const proxy = new URL(standIn.url).origin;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    CODEX_HOME: codexHome,
    [API_KEY_VARIABLE]: "sk-stand-in-0123456789",
    NO_COLOR: "1",
    HTTPS_PROXY: proxy,
    HTTP_PROXY: proxy,
    ALL_PROXY: proxy,
    https_proxy: proxy,
    http_proxy: proxy,
    all_proxy: proxy,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
  };
  return { project, stateDir: join(root.path, "state"), env, standIn };
}

/** Runs the real Codex once through the preset, in the sandbox's project. */
function runCodex(sandbox: Sandbox, prompt: string, options: CodexExecutorOptions = {}) {
  const executor = codexExecutor({
    command: codex.path,
    cwd: sandbox.project,
    env: sandbox.env,
    timeoutMs: RUN_TIMEOUT_MS,
    progress: gitProgress({ cwd: sandbox.project }),
    ...options,
  });
  return executor.execute(executionRequest({ prompt }), { signal: new AbortController().signal });
}

/** The prompt of a turn: the last user message of its first request. */
const promptOf = (recorded: RecordedRequest | undefined) =>
  recorded === undefined ? undefined : userMessageTexts(recorded).at(-1);

const INCORRECT_KEY =
  "Incorrect API key provided: sk-stand***6789. You can find your API key at https://platform.openai.com/account/api-keys.";
/** What the OpenAI API answers to a key it does not know. */
const UNAUTHORIZED: ScriptedReply = {
  kind: "http-error",
  status: 401,
  message: INCORRECT_KEY,
  type: "invalid_request_error",
  code: "invalid_api_key",
};

describe("codexExecutor with the real Codex CLI", () => {
  it("edits the workspace: a command of the model writes hello.txt", async () => {
    const sandbox = await setUp([
      { kind: "shell", command: "printf 'hello from codex\\n' > hello.txt" },
      { kind: "message", text: "Wrote hello.txt." },
    ]);
    const result = await runCodex(sandbox, "Create hello.txt saying hello.");
    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({ success: true, output: "Wrote hello.txt.\n", filesChanged: 1 });
    expect(readFileSync(join(sandbox.project, "hello.txt"), "utf8")).toBe("hello from codex\n");
    // Codex ran the command and reported its exit to the model.
    expect(functionCallOutputs(sandbox.standIn.requests[1] as RecordedRequest)).toEqual([
      expect.stringContaining("Process exited with code 0"),
    ]);
    expect(sandbox.standIn.requests[0]?.headers.authorization).toBe(
      "Bearer sk-stand-in-0123456789",
    );
  });

  it("cannot write with sandbox: read-only (Codex's own default)", async () => {
    const sandbox = await setUp([
      { kind: "shell", command: "printf 'hello\\n' > hello.txt" },
      { kind: "message", text: "Could not write." },
    ]);
    const result = await runCodex(sandbox, "Create hello.txt.", { sandbox: "read-only" });
    expect(result.success).toBe(true);
    expect(existsSync(join(sandbox.project, "hello.txt"))).toBe(false);
    expect(functionCallOutputs(sandbox.standIn.requests[1] as RecordedRequest)).toEqual([
      expect.stringContaining("Read-only file system"),
    ]);
  });

  it.each([
    ["a markdown front-matter line", "---\ntitle: the plan\n---\nSay hello."],
    ["a flag-like word", "-x is not a flag: say hello."],
  ])("passes a prompt starting with %s to the model as the prompt", async (_, prompt) => {
    const sandbox = await setUp([{ kind: "message", text: "Hello." }]);
    const result = await runCodex(sandbox, prompt);
    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({ success: true, output: "Hello.\n" });
    expect(sandbox.standIn.requests).toHaveLength(1);
    expect(promptOf(sandbox.standIn.requests[0])).toBe(prompt);
  });

  it("fails with the API's own message when the key is refused (401)", async () => {
    const sandbox = await setUp([UNAUTHORIZED]);
    const result = await runCodex(sandbox, "Say hello.");
    expect(result.success).toBe(false);
    expect(result.error).toBe(
      `exited with code 1: unexpected status 401 Unauthorized: ${INCORRECT_KEY}, url: ${sandbox.standIn.url}/responses`,
    );
  });

  it("keeps the cause when Codex logs and counts tokens after it (401 mid-turn, RUST_LOG set)", async () => {
    const sandbox = await setUp([{ kind: "shell", command: "echo working" }, UNAUTHORIZED]);
    const result = await runCodex(sandbox, "Say hello.", {
      env: { ...sandbox.env, RUST_LOG: "info" },
    });
    expect(result.success).toBe(false);
    expect(result.error).toBe(
      `exited with code 1: unexpected status 401 Unauthorized: ${INCORRECT_KEY}, url: ${sandbox.standIn.url}/responses`,
    );
  });

  it("fails with Codex's message for a server error (500), which hides the API's body", async () => {
    const sandbox = await setUp([
      {
        kind: "http-error",
        status: 500,
        message: "The server had an error processing your request.",
      },
    ]);
    const result = await runCodex(sandbox, "Say hello.");
    expect(result.success).toBe(false);
    expect(result.error).toBe(
      "exited with code 1: We’re currently experiencing high demand, which may cause temporary errors.",
    );
  });
});

/** The README tour's stand-in agent: it works on the plan the prompt (its stdin) names. */
const DEMO_AGENT = fileURLToPath(
  new URL("../../examples/cli-tour/demo-agent.mjs", import.meta.url),
);
/** Ends the here-document that hands Codex's shell the prompt, verbatim. */
const END_OF_PROMPT = "END_OF_LOOP_PROMPT";

/** `word` quoted for a POSIX shell. */
const shellWord = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/**
 * A model that does what the loop's prompt asks, like test/fixtures/fake-claude.mjs: first a
 * shell command that gives the prompt to the tour's demo agent (examples/cli-tour, `workOnPlan`),
 * which checks the box of the prompt's task (in a wrap-up, every open box) and sets EXIT_SIGNAL
 * once no box is open; then, given the command's output, the demo agent's answer, which ends with
 * the RALPH_STATUS block.
 */
const planAgent: ReplyFunction = (recorded) => {
  const prompt = promptOf(recorded) ?? "";
  const output = functionCallOutputs(recorded).at(-1);
  if (output === undefined) {
    if (prompt.split("\n").includes(END_OF_PROMPT)) {
      throw new Error(`the prompt has a line ${END_OF_PROMPT}: ${prompt.slice(0, 300)}`);
    }
    return {
      kind: "shell",
      command: [
        `${shellWord(process.execPath)} ${shellWord(DEMO_AGENT)} <<'${END_OF_PROMPT}'`,
        prompt,
        END_OF_PROMPT,
      ].join("\n"),
    };
  }
  // Codex reports the command's exit code and time, then `Output:` and its standard output.
  const answer = /\nOutput:\n([\s\S]*)$/.exec(output)?.[1]?.trimEnd();
  if (answer === undefined) throw new Error(`the demo agent's command gave no output: ${output}`);
  return { kind: "message", text: answer };
};

/**
 * {@link planAgent} in a parallel run's worktree: its shell command also writes
 * `src/<task>.txt` in the directory Codex runs it in, the task's work.
 */
const worktreeAgent: ReplyFunction = (recorded) => {
  const reply = planAgent(recorded);
  if (reply.kind !== "shell") return reply;
  const task = /Your task is `([^`]+)`/.exec(promptOf(recorded) ?? "")?.[1] ?? "none";
  const file = shellWord(`src/${task}.txt`);
  return {
    ...reply,
    command: `mkdir -p src && echo ${shellWord(`${task} works`)} > ${file} && ${reply.command}`,
  };
};

describe("loop run --parallel 2 --executor codex with the real Codex CLI", () => {
  it("runs each task's Codex in its own worktree and merges both tasks' work", async () => {
    const sandbox = await setUp(Array.from({ length: 40 }, () => worktreeAgent));
    const project = sandbox.project;
    await writeFile(
      join(project, "plan.md"),
      "# Plan\n\n## Modules (parallel)\n\n- [ ] TASK-001 Add a greeting module\n- [ ] TASK-002 Add a farewell module\n",
    );
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: project, encoding: "utf8" }).trim();
    git("add", "plan.md");
    git("-c", "user.name=A User", "-c", "user.email=user@example.test", "commit", "-qm", "plan");
    const run = await runCliProcess(
      ["run", "--parallel", "2", "--executor", "codex", "--bin", codex.path],
      project,
      sandbox.env,
      { timeoutMs: 100_000 },
    );
    const toolOutputs = sandbox.standIn.requests.flatMap(functionCallOutputs).join("\n");
    expect(run.code, `${run.stderr}\nCodex's tool outputs:\n${toolOutputs}`).toBe(0);
    expect(git("ls-tree", "--name-only", "HEAD", "src/").split("\n")).toEqual([
      "src/TASK-001.txt",
      "src/TASK-002.txt",
    ]);
    expect(git("show", "HEAD:src/TASK-001.txt")).toBe("TASK-001 works");
    expect(readFileSync(join(project, "plan.md"), "utf8")).not.toMatch(/^[-*] \[ \]/m);
    // Codex was told it runs in the task's worktree, one per task; the wrap-up iteration, once
    // every task is merged, runs in the project.
    const places = new Set(
      sandbox.standIn.requests.flatMap((recorded) =>
        userMessageTexts(recorded).flatMap((text) =>
          [...text.matchAll(/<cwd>([^<]+)<\/cwd>/g)].map((match) => match[1] ?? ""),
        ),
      ),
    );
    const worktrees = [...places].filter((place) => place !== project);
    expect(worktrees).toHaveLength(2);
    for (const place of worktrees) expect(place).toContain(join(project, ".loop", "worktrees"));
  });
});

describe("loop run --executor codex with the real Codex CLI", () => {
  it("runs a new project's plan to completion, Codex checking the boxes", async () => {
    // Two requests per iteration (the command, then the answer); more than the loop can use.
    const sandbox = await setUp(Array.from({ length: 40 }, () => planAgent));
    const env = { ...sandbox.env, LOOP_STATE_DIR: sandbox.stateDir, LOOP_TERMINAL_ID: "codex-e2e" };
    const loop = (args: string[]) =>
      runCliProcess(args, sandbox.project, env, { timeoutMs: 100_000 });

    const init = await loop(["init"]);
    expect(init.code, init.stderr).toBe(0);
    const run = await loop(["run", "--executor", "codex", "--bin", codex.path]);
    const toolOutputs = sandbox.standIn.requests.flatMap(functionCallOutputs).join("\n");
    expect(run.code, `${run.stderr}\nCodex's tool outputs:\n${toolOutputs}`).toBe(0);
    expect(run.stderr).toContain("exit: all_tasks_complete");

    const plan = readFileSync(join(sandbox.project, "plan.md"), "utf8");
    expect(plan).not.toMatch(/^[-*] \[ \]/m);
    expect(plan).toContain("EXIT_SIGNAL: true");
    // Each task's turn got the loop's prompt naming that task, in plan order.
    const tasks = sandbox.standIn.requests
      .filter((recorded) => functionCallOutputs(recorded).length === 0)
      .map((recorded) => /Your task is `([^`]+)`/.exec(promptOf(recorded) ?? "")?.[1])
      .filter((task) => task !== undefined);
    expect(tasks).toEqual(["TASK-001", "TASK-002", "TASK-003", "TASK-004", "TASK-005"]);
    const status = JSON.parse(
      readFileSync(join(sandbox.project, ".claude/loop/status.json"), "utf8"),
    );
    expect(status).toMatchObject({ status: "completed", exit_reason: "all_tasks_complete" });
  });
});

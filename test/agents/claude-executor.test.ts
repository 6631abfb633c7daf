import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ClaudeExecutor, type ClaudeExecutorOptions, detectUsageLimit } from "@loop/claude";
import type { ExecutionRequest } from "@loop/core";
import { gitProgress } from "@loop/exec";
import { describe, expect, it } from "vitest";
import { executionRequest } from "../support/execution-request.js";
import type { Reply } from "./stand-ins/anthropic-api.js";
import { agentBinary, pinnedVersions } from "./support/agent-binaries.js";
import { type ClaudeAuth, claudeEnvironment } from "./support/claude-environment.js";
import { useClaudeTestBed } from "./support/claude-test-bed.js";

// ClaudeExecutor against the real Claude Code CLI, every pinned version, offline against the
// Anthropic stand-in, in a real git repository with a temp HOME.

const HOUR_SECONDS = 3600;

/** The subscription headers of a plan limit reached, with or without extra usage to go on. */
function limitHeaders(resetSeconds: number, overage: "allowed" | "rejected", claim = "five_hour") {
  return {
    "anthropic-ratelimit-unified-status": "rejected",
    "anthropic-ratelimit-unified-reset": String(resetSeconds),
    "anthropic-ratelimit-unified-representative-claim": claim,
    "anthropic-ratelimit-unified-overage-status": overage,
  };
}

describe.each(pinnedVersions("claude"))("ClaudeExecutor on Claude Code %s", (version) => {
  const claude = agentBinary("claude", version);
  const bed = useClaudeTestBed({ "README.md": "# demo\n" });

  async function executor(
    script: readonly Reply[],
    options: Partial<ClaudeExecutorOptions> & { auth?: ClaudeAuth } = {},
  ): Promise<ClaudeExecutor> {
    const standIn = await bed.startStandIn({ script });
    const { auth, env, ...rest } = options;
    return new ClaudeExecutor({
      bin: claude.path,
      cwd: bed.project,
      env: env ?? claudeEnvironment({ baseUrl: standIn.url, home: bed.home, auth }),
      permissionMode: "acceptEdits",
      allowedTools: ["Bash"],
      ...rest,
    });
  }

  const run = (agent: ClaudeExecutor, overrides: Partial<ExecutionRequest> = {}) =>
    agent.execute(executionRequest(overrides), { signal: new AbortController().signal });

  it("writes a file and runs a command, reporting cost, tokens and the files changed", async () => {
    const agent = await executor(
      [
        {
          text: "Writing the file.",
          tools: [
            {
              name: "Write",
              input: { file_path: join(bed.project, "hello.txt"), content: "hello\n" },
            },
          ],
        },
        { tools: [{ name: "Bash", input: { command: "echo ran > ran.txt", description: "Run" } }] },
        { text: "Both done.", usage: { input_tokens: 1000, output_tokens: 100 } },
      ],
      { progress: gitProgress({ cwd: bed.project }) },
    );
    const result = await run(agent);
    expect(result).toMatchObject({ success: true, output: "Both done.", filesChanged: 2 });
    expect(readFileSync(join(bed.project, "hello.txt"), "utf8")).toBe("hello\n");
    expect(readFileSync(join(bed.project, "ran.txt"), "utf8")).toBe("ran\n");
    expect(result.costUsd).toBeGreaterThan(0);
    expect(result.tokens?.input).toBeGreaterThanOrEqual(1000);
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("extra usage: a successful run paid from overage is no usage limit, and its cost counts", async () => {
    const reset = Math.floor(Date.now() / 1000) + HOUR_SECONDS;
    const agent = await executor(
      [{ text: "Done on extra usage.", headers: limitHeaders(reset, "allowed") }],
      { auth: "subscription" },
    );
    const result = await run(agent);
    expect(result).toMatchObject({ success: true, output: "Done on extra usage." });
    expect(result.usageLimit).toBeUndefined();
    expect(result.costUsd).toBeGreaterThan(0);
  });

  it("a rejected plan limit without extra usage is a waitable limit with the header's reset", async () => {
    const reset = Math.floor(Date.now() / 1000) + HOUR_SECONDS;
    const agent = await executor(
      [
        {
          error: { status: 429, type: "rate_limit_error", message: "limit reached" },
          headers: limitHeaders(reset, "rejected"),
        },
      ],
      { auth: "subscription" },
    );
    const result = await run(agent);
    expect(result.success).toBe(false);
    expect(result.usageLimit).toMatchObject({ resetAt: reset * 1000, waitable: true });
  });

  it.each(["five_hour", "seven_day", "seven_day_opus"])(
    "the text fallback reads the CLI's own words for a %s limit, with its reset",
    async (claim) => {
      const reset = Math.floor(Date.now() / 1000) + 3 * HOUR_SECONDS;
      const agent = await executor(
        [
          {
            error: { status: 429, type: "rate_limit_error", message: "limit reached" },
            headers: limitHeaders(reset, "rejected", claim),
          },
        ],
        { auth: "subscription" },
      );
      const result = await run(agent);
      const fromText = detectUsageLimit(result.output, Date.now());
      expect(fromText, result.output).toMatchObject({ waitable: true });
      // The CLI writes the reset to the minute, in this machine's zone.
      expect(Math.abs((fromText?.resetAt ?? 0) - reset * 1000)).toBeLessThan(60_000);
    },
  );

  it("says why a run failed in the CLI's words: not logged in, a bad key, a bad request", async () => {
    const notLoggedIn = await run(await executor([], { auth: "none" }));
    expect(notLoggedIn.success).toBe(false);
    expect(notLoggedIn.error).toContain("Not logged in · Please run /login");
    expect(notLoggedIn.error).not.toContain("(success)");

    const badKey = await run(
      await executor([
        {
          error: { status: 401, type: "authentication_error", message: "invalid x-api-key" },
        },
      ]),
    );
    expect(badKey.error).toMatch(/Invalid API key.*HTTP 401/);
    expect(badKey.usageLimit).toBeUndefined();

    const badRequest = await run(
      await executor([
        {
          error: {
            status: 400,
            type: "invalid_request_error",
            message: "prompt is too long: 300000 tokens > 200000 maximum",
          },
        },
      ]),
    );
    expect(badRequest.error).toMatch(/too long.*HTTP 400/i);
  });

  it("an overloaded or rate-limited API is a failed run, never a usage limit to wait out", async () => {
    const overloaded = await run(
      await executor([{ error: { status: 529, type: "overloaded_error", message: "Overloaded" } }]),
    );
    expect(overloaded).toMatchObject({ success: false });
    expect(overloaded.error).toContain("529");
    expect(overloaded.usageLimit).toBeUndefined();

    const throttled = await run(
      await executor([
        {
          error: {
            status: 429,
            type: "rate_limit_error",
            message: "Number of request tokens has exceeded your per-minute rate limit",
          },
        },
      ]),
    );
    expect(throttled.success).toBe(false);
    expect(throttled.usageLimit).toBeUndefined();
  });

  it("books what each resumed run added, not the session's running total", async () => {
    const reply: Reply = {
      text: "Iteration done.",
      usage: { input_tokens: 1000, output_tokens: 200 },
    };
    const agent = await executor([reply, reply, reply], { continueSession: true });
    const costs: number[] = [];
    let sessionId: string | null = null;
    for (let iteration = 1; iteration <= 3; iteration += 1) {
      const result = await run(agent, { iteration, sessionId });
      expect(result.success).toBe(true);
      if (sessionId !== null) expect(result.sessionId).toBe(sessionId);
      sessionId = result.sessionId ?? null;
      costs.push(result.costUsd ?? 0);
    }
    expect(costs[0]).toBeGreaterThan(0);
    expect(costs[1]).toBeCloseTo(costs[0] ?? 0, 10);
    expect(costs[2]).toBeCloseTo(costs[0] ?? 0, 10);
  });

  it("a resumed session that is gone starts a new one in the same iteration", async () => {
    const agent = await executor([{ text: "Fresh start." }], { continueSession: true });
    const gone = randomUUID();
    const result = await run(agent, { sessionId: gone });
    expect(result).toMatchObject({ success: true, output: "Fresh start." });
    expect(result.sessionId).not.toBe(gone);
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(bed.standIn?.scriptedRequests()).toHaveLength(1);
  });

  it("--dangerously-skip-permissions as root is refused with what to do", async () => {
    const agent = await executor([{ text: "Skipped permissions." }], {
      skipPermissions: true,
      permissionMode: null,
    });
    const result = await run(agent);
    if (process.getuid?.() === 0) {
      expect(result.success).toBe(false);
      expect(result.error).toContain("cannot be used with root");
      expect(result.error).toContain("IS_SANDBOX=1");
      expect(bed.standIn?.scriptedRequests()).toHaveLength(0);
    } else {
      expect(result).toMatchObject({ success: true, output: "Skipped permissions." });
    }
    expect(existsSync(join(bed.project, "hello.txt"))).toBe(false);
  });
});

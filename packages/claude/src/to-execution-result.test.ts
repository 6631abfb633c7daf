import { describe, expect, it } from "vitest";
import { parseClaudeStream } from "./claude-stream-parser.js";
import { toExecutionResult } from "./to-execution-result.js";

/** 2026-01-15 12:00 UTC. */
const NOW = Date.UTC(2026, 0, 15, 12, 0);

/** The `system`/`init` line every recorded run starts with. */
const INIT =
  '{"type":"system","subtype":"init","cwd":"/repo","session_id":"init-7","tools":["Bash"],"model":"claude-opus-4-1","permissionMode":"default"}';

/** A result line with the given fields over a successful default. */
function resultLine(fields: Record<string, unknown>): string {
  return JSON.stringify({
    type: "result",
    subtype: "success",
    is_error: false,
    num_turns: 4,
    result: "Done.",
    session_id: "sess-7",
    total_cost_usd: 0.42,
    usage: { input_tokens: 10, output_tokens: 20 },
    permission_denials: [],
    ...fields,
  });
}

/** A user event whose tool output quotes a usage-limit banner. */
const TOOL_OUTPUT_QUOTING_A_LIMIT =
  '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"5-hour limit reached ∙ resets 1am"}]},"session_id":"init-7"}';

describe("toExecutionResult", () => {
  it("maps a successful run with its cost and tokens", () => {
    const run = parseClaudeStream([INIT, TOOL_OUTPUT_QUOTING_A_LIMIT, resultLine({})].join("\n"));
    expect(toExecutionResult(run, { exitCode: 0, timedOut: false, now: NOW })).toEqual({
      output: "Done.",
      success: true,
      sessionId: "sess-7",
      costUsd: 0.42,
      tokens: { input: 10, output: 20 },
      permissionDenials: [],
    });
  });

  it("fails an is_error result even with exit code 0", () => {
    const run = parseClaudeStream(
      [INIT, resultLine({ subtype: "success", is_error: true, result: "API Error: 500" })].join(
        "\n",
      ),
    );
    const result = toExecutionResult(run, { exitCode: 0, timedOut: false, now: NOW });
    expect(result).toMatchObject({ success: false, output: "API Error: 500", sessionId: "sess-7" });
    expect(result.error).toBe("Claude Code: API Error: 500");
    expect(result.usageLimit).toBeUndefined();
  });

  it("fails a non-success subtype and a non-zero exit code", () => {
    const maxTurns = parseClaudeStream(resultLine({ subtype: "error_max_turns", result: "" }));
    expect(toExecutionResult(maxTurns, { exitCode: 0, timedOut: false, now: NOW }).success).toBe(
      false,
    );
    const exitOne = parseClaudeStream(resultLine({}));
    expect(toExecutionResult(exitOne, { exitCode: 1, timedOut: false, now: NOW }).success).toBe(
      false,
    );
  });

  it("fails a crash before the result, keeping the init session id", () => {
    const run = parseClaudeStream(
      `${INIT}\n{"type":"assistant","message":{"content":[{"type":"text","text":"Working"}]}}\n`,
    );
    const result = toExecutionResult(run, { exitCode: null, timedOut: false, now: NOW });
    expect(result).toMatchObject({ output: "", success: false, sessionId: "init-7" });
    expect(result.error).toContain("before writing a result");
    expect(result.costUsd).toBeUndefined();
  });

  it("passes permission denials through", () => {
    const run = parseClaudeStream(
      resultLine({
        permission_denials: [{ tool_name: "Bash", tool_input: { command: "git push --force" } }],
      }),
    );
    expect(
      toExecutionResult(run, { exitCode: 0, timedOut: false, now: NOW }).permissionDenials,
    ).toEqual([{ tool: "Bash", detail: "git push --force" }]);
  });

  it.each([
    ["Claude AI usage limit reached|1768500000", 1768500000000],
    [
      "Claude usage limit reached. Your limit will reset at 7pm (Asia/Tokyo).",
      Date.UTC(2026, 0, 16, 10, 0),
    ],
    ["5-hour limit reached ∙ resets 1am", Date.UTC(2026, 0, 16, 1, 0)],
    ["You've hit your limit · resets 9:30pm (UTC)", Date.UTC(2026, 0, 15, 21, 30)],
    ["You've hit your session limit · resets 3pm", Date.UTC(2026, 0, 15, 15, 0)],
    ["You're out of extra usage · resets 9pm", Date.UTC(2026, 0, 15, 21, 0)],
  ])("reads the usage limit of a result saying %j", (text, resetAt) => {
    const run = parseClaudeStream(
      [INIT, resultLine({ is_error: true, result: text, total_cost_usd: 0 })].join("\n"),
    );
    const result = toExecutionResult(run, { exitCode: 1, timedOut: false, now: NOW });
    expect(result.success).toBe(false);
    // The machine-readable `|<epoch>` is left out of the message: the reset is in `resetAt`.
    const message = text.replace(/\|\d+$/, "");
    expect(result.usageLimit).toEqual({ resetAt, waitable: true, message });
  });

  it("prefers a rejected rate_limit_event to the result text", () => {
    const run = parseClaudeStream(
      [
        INIT,
        '{"type":"rate_limit_event","rate_limit_info":{"status":"rejected","resetsAt":1768503600,"rateLimitType":"five_hour"},"session_id":"init-7"}',
        resultLine({
          is_error: true,
          result: "You've hit your limit · resets 2pm (Asia/Shanghai)",
        }),
      ].join("\n"),
    );
    expect(toExecutionResult(run, { exitCode: 1, timedOut: false, now: NOW }).usageLimit).toEqual({
      resetAt: 1768503600000,
      waitable: true,
      message: "You've hit your limit · resets 2pm (Asia/Shanghai)",
    });
  });

  it("reads a rejected rate_limit_event even without a result", () => {
    const run = parseClaudeStream(
      `${INIT}\n{"type":"rate_limit_event","rate_limit_info":{"status":"rejected","resetsAt":1768503600}}`,
    );
    const result = toExecutionResult(run, { exitCode: 1, timedOut: false, now: NOW });
    expect(result.usageLimit).toMatchObject({ resetAt: 1768503600000, waitable: true });
    expect(result.sessionId).toBe("init-7");
  });

  it("does not read a 429 overload as a usage limit", () => {
    const run = parseClaudeStream(
      resultLine({
        is_error: true,
        result:
          "API Error: 429 We're temporarily limiting requests (not your usage limit). Try again shortly.",
      }),
    );
    const result = toExecutionResult(run, { exitCode: 1, timedOut: false, now: NOW });
    expect(result.success).toBe(false);
    expect(result.usageLimit).toBeUndefined();
  });

  it("never reads a timeout as a usage limit", () => {
    const run = parseClaudeStream(
      [
        '{"type":"rate_limit_event","rate_limit_info":{"status":"rejected","resetsAt":1768503600}}',
        resultLine({ result: "5-hour limit reached ∙ resets 1am" }),
      ].join("\n"),
    );
    for (const outcome of [
      { exitCode: 124, timedOut: false, now: NOW },
      { exitCode: null, timedOut: true, now: NOW },
    ]) {
      const result = toExecutionResult(run, outcome);
      expect(result.usageLimit).toBeUndefined();
      expect(result.success).toBe(false);
      expect(result.error).toContain("timed out");
    }
  });

  it("does not read a limit quoted in tool output or assistant prose", () => {
    const run = parseClaudeStream(
      [
        INIT,
        TOOL_OUTPUT_QUOTING_A_LIMIT,
        '{"type":"assistant","message":{"content":[{"type":"text","text":"5-hour limit reached ∙ resets 1am"}]}}',
        resultLine({ result: "I made the 5-hour limit banner show its reset time." }),
      ].join("\n"),
    );
    const result = toExecutionResult(run, { exitCode: 0, timedOut: false, now: NOW });
    expect(result.usageLimit).toBeUndefined();
    expect(result.success).toBe(true);
  });
});

describe("toExecutionResult: tokens", () => {
  const outcome = { exitCode: 0, timedOut: false, now: NOW };

  it("reports input tokens (cache reads and writes included) and output tokens", () => {
    const usage = {
      input_tokens: 10,
      cache_creation_input_tokens: 300,
      cache_read_input_tokens: 4000,
      output_tokens: 20,
    };
    const run = parseClaudeStream([INIT, resultLine({ usage })].join("\n"));
    expect(toExecutionResult(run, outcome).tokens).toEqual({ input: 4310, output: 20 });
  });

  it("counts a missing or malformed count as 0, and reports no tokens without a usage object", () => {
    const malformed = parseClaudeStream(
      [INIT, resultLine({ usage: { input_tokens: "many", output_tokens: 7 } })].join("\n"),
    );
    expect(toExecutionResult(malformed, outcome).tokens).toEqual({ input: 0, output: 7 });
    const without = parseClaudeStream([INIT, resultLine({ usage: undefined })].join("\n"));
    expect(toExecutionResult(without, outcome).tokens).toBeUndefined();
  });
});

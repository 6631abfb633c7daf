import { describe, expect, it } from "vitest";
import { createClaudeStreamParser, parseClaudeStream } from "./claude-stream-parser.js";

/** A recorded successful run: init, a tool call and its output, an answer, the result. */
const SUCCESS_STREAM = [
  '{"type":"system","subtype":"init","cwd":"/repo","session_id":"init-1","tools":["Bash","Edit"],"mcp_servers":[],"model":"claude-sonnet-4-5-20250929","permissionMode":"default","apiKeySource":"none"}',
  '{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"Running the tests."},{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"pnpm test","description":"Run tests"}}],"stop_reason":null,"usage":{"input_tokens":10,"output_tokens":5}},"parent_tool_use_id":null,"session_id":"init-1"}',
  '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"5-hour limit reached ∙ resets 1am\\nall 12 tests passed","is_error":false}]},"parent_tool_use_id":null,"session_id":"init-1"}',
  '{"type":"assistant","message":{"id":"msg_2","type":"message","role":"assistant","content":[{"type":"text","text":"All tests pass. TASK-001 is done."}]},"parent_tool_use_id":null,"session_id":"init-1"}',
  '{"type":"result","subtype":"success","is_error":false,"duration_ms":12034,"duration_api_ms":11000,"num_turns":3,"result":"All tests pass. TASK-001 is done.","session_id":"sess-42","total_cost_usd":0.0734,"usage":{"input_tokens":1200,"cache_creation_input_tokens":0,"cache_read_input_tokens":300,"output_tokens":240},"permission_denials":[]}',
].join("\n");

describe("parseClaudeStream", () => {
  it("reads a successful run", () => {
    const run = parseClaudeStream(SUCCESS_STREAM);
    expect(run).toEqual({
      sessionId: "sess-42",
      model: "claude-sonnet-4-5-20250929",
      assistantText: ["Running the tests.", "All tests pass. TASK-001 is done."],
      toolUses: [{ name: "Bash", input: { command: "pnpm test", description: "Run tests" } }],
      result: {
        subtype: "success",
        isError: false,
        text: "All tests pass. TASK-001 is done.",
        sessionId: "sess-42",
        totalCostUsd: 0.0734,
        usage: {
          input_tokens: 1200,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 300,
          output_tokens: 240,
        },
        numTurns: 3,
        permissionDenials: [],
        errors: [],
        apiErrorStatus: null,
        modelUsage: null,
        modelUsageSinceLastResult: null,
      },
      rateLimitRejection: null,
      apiErrorMessage: null,
      malformedLines: 0,
    });
  });

  it("reads permission denials: tool_name and tool_input.command", () => {
    const run = parseClaudeStream(
      '{"type":"result","subtype":"success","is_error":false,"num_turns":2,"result":"I could not run it.","session_id":"s","total_cost_usd":0.01,"permission_denials":[{"tool_name":"Bash","tool_use_id":"toolu_9","tool_input":{"command":"rm -rf node_modules"}},{"tool_name":"Write","tool_use_id":"toolu_10","tool_input":{"file_path":"/etc/hosts","content":"x"}},{"tool_name":"mcp__github__create_issue","tool_input":{"title":"t"}}]}',
    );
    expect(run.result?.permissionDenials).toEqual([
      { tool: "Bash", detail: "rm -rf node_modules" },
      { tool: "Write", detail: "/etc/hosts" },
      { tool: "mcp__github__create_issue", detail: null },
    ]);
  });

  it("keeps the init session id when the run crashed before its result", () => {
    const run = parseClaudeStream(
      `${SUCCESS_STREAM.split("\n").slice(0, 2).join("\n")}\n{"type":"assistant","message":{"content":[{"type":"te`,
    );
    expect(run.result).toBeNull();
    expect(run.sessionId).toBe("init-1");
    expect(run.malformedLines).toBe(1);
  });

  it("counts malformed lines and never throws", () => {
    const run = parseClaudeStream(
      ["not json", "[1,2]", '"text"', "null", '{"no_type":1}', "", "   ", "{"].join("\r\n"),
    );
    expect(run.malformedLines).toBe(6);
    expect(run.result).toBeNull();
    expect(run.sessionId).toBeNull();
  });

  it("tolerates fields of the wrong type", () => {
    const run = parseClaudeStream(
      [
        '{"type":"system","subtype":"init","session_id":7,"model":null}',
        '{"type":"assistant","message":{"content":"text, not blocks"}}',
        '{"type":"assistant","message":null}',
        '{"type":"result","subtype":"success","is_error":"false","result":5,"total_cost_usd":"1","permission_denials":{}}',
      ].join("\n"),
    );
    expect(run.sessionId).toBeNull();
    expect(run.assistantText).toEqual([]);
    expect(run.result).toMatchObject({ isError: false, text: "", totalCostUsd: null });
    expect(run.result?.permissionDenials).toEqual([]);
  });

  it("keeps only a rejected rate_limit_event, its reset in milliseconds", () => {
    const run = parseClaudeStream(
      [
        '{"type":"rate_limit_event","rate_limit_info":{"status":"allowed_warning","resetsAt":1778500000,"rateLimitType":"seven_day"},"session_id":"s"}',
        '{"type":"rate_limit_event","rate_limit_info":{"status":"allowed","resetsAt":1778500000}}',
      ].join("\n"),
    );
    expect(run.rateLimitRejection).toBeNull();
    const rejected = parseClaudeStream(
      '{"type":"rate_limit_event","rate_limit_info":{"status":"rejected","resetsAt":1778565600,"rateLimitType":"five_hour","overageStatus":"rejected","isUsingOverage":false},"uuid":"u","session_id":"s"}',
    );
    expect(rejected.rateLimitRejection).toEqual({ resetsAt: 1778565600000, type: "five_hour" });
  });
});

describe("createClaudeStreamParser", () => {
  it("reads line by line like the whole-text parser", () => {
    const parser = createClaudeStreamParser();
    for (const line of SUCCESS_STREAM.split("\n")) parser.push(line);
    expect(parser.finish()).toEqual(parseClaudeStream(SUCCESS_STREAM));
  });

  it("gives the run so far, and again after more lines", () => {
    const parser = createClaudeStreamParser();
    const [init, first] = SUCCESS_STREAM.split("\n");
    parser.push(init ?? "");
    expect(parser.finish().sessionId).toBe("init-1");
    parser.push(first ?? "");
    expect(parser.finish().assistantText).toEqual(["Running the tests."]);
  });
});

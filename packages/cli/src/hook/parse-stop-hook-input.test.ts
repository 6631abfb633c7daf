import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseStopHookInput } from "./parse-stop-hook-input.js";

const recorded = readFileSync(
  new URL("../../../../test/fixtures/hook/stop-input.json", import.meta.url),
  "utf8",
);

describe("parseStopHookInput", () => {
  it("reads a recorded Stop hook input, ignoring the fields it does not need", () => {
    expect(parseStopHookInput(recorded)).toEqual({
      ok: true,
      input: {
        session_id: "8f2c7a1e-4b3d-4e5f-9a6b-1c2d3e4f5a6b",
        transcript_path:
          "/home/dev/.claude/projects/-home-dev-todo-api/8f2c7a1e-4b3d-4e5f-9a6b-1c2d3e4f5a6b.jsonl",
        cwd: "/home/dev/todo-api",
        hook_event_name: "Stop",
        stop_hook_active: false,
      },
    });
  });

  it("accepts a missing or null transcript_path and hook_event_name", () => {
    const result = parseStopHookInput('{"session_id":"s","cwd":"/p","transcript_path":null}');
    expect(result).toMatchObject({ ok: true, input: { transcript_path: null } });
  });

  it.each([
    ["", "no input"],
    ["not json", "not JSON"],
    ["[1]", "expected a JSON object"],
    ['{"cwd":"/p"}', '"session_id" must be a non-empty string, got nothing'],
    ['{"session_id":"s","cwd":""}', '"cwd" must be a non-empty string'],
    ['{"session_id":"s","cwd":"/p","transcript_path":3}', '"transcript_path" must be a string'],
    ['{"session_id":"s","cwd":"/p","hook_event_name":"SubagentStop"}', "Stop event only"],
  ])("explains what is wrong with %j", (text, problem) => {
    const result = parseStopHookInput(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toContain(problem);
  });

  it("names every problem at once", () => {
    const result = parseStopHookInput("{}");
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.problem).toMatch(/session_id.*; "cwd"/);
  });
});

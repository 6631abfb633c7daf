import { describe, expect, it } from "vitest";
import { parseDecisionEvent } from "./parse-decision-event.js";

const good =
  '{"terminal_id": "term_001", "event": "iteration_start", "payload": {"iteration": 1, "current_task_id": "TASK-001", "total_tasks": 5}, "timestamp": "2026-03-14T10:00:00"}';

describe("parseDecisionEvent", () => {
  it("accepts a line with a trailing carriage return or a byte order mark", () => {
    expect(parseDecisionEvent(`${good}\r`).ok).toBe(true);
    expect(parseDecisionEvent(`\uFEFF${good}`).ok).toBe(true);
  });

  it("locates a JSON syntax error at its column, with the log's line number", () => {
    const line = '{"terminal_id": "t" "event": "error"}';
    expect(parseDecisionEvent(line, { line: 7 })).toEqual({
      ok: false,
      problem: {
        message: "invalid JSON: expected `,` before the next item",
        line: 7,
        column: 21,
      },
      problems: [
        { message: "invalid JSON: expected `,` before the next item", line: 7, column: 21 },
      ],
    });
  });

  it("locates schema problems at their key paths", () => {
    const line = good.replace('"iteration": 1', '"iteration": "one"').replace("term_001", "a/b");
    const parsed = parseDecisionEvent(line, { line: 3 });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems).toEqual([
      {
        message: 'expected a safe terminal id (1 to 64 of A-Z a-z 0-9 . _ -), got "a/b"',
        line: 3,
        path: ["terminal_id"],
      },
      { message: 'expected an integer ≥ 1, got "one"', line: 3, path: ["payload", "iteration"] },
    ]);
    expect(parsed.problem).toEqual(parsed.problems[0]);
  });

  it.each([
    ["an empty line", "", "empty line"],
    ["white space", "  \t", "empty line"],
    [
      "a JSON value that is not an object",
      "[1]",
      "expected a JSON object (a decision event), got a list",
    ],
    ["null", "null", "expected a JSON object (a decision event), got null"],
    [
      "an unknown event",
      '{"terminal_id": "t", "event": "party", "payload": {}, "timestamp": "2026-03-14T10:00:00"}',
      'unknown value "party": expected one of iteration_start, iteration_end, loop_exit, error, rate_limit_wait, usage_limit_wait, task_failed, state_recovered, lock_takeover, verification, config_warning, state_reset, previous_agent_stopped, task_integrated, merge_conflict, workspaces_recovered, task_retried',
    ],
    [
      "a missing event",
      '{"terminal_id": "t", "payload": {}, "timestamp": "2026-03-14T10:00:00"}',
      "missing: expected one of iteration_start, iteration_end, loop_exit, error, rate_limit_wait, usage_limit_wait, task_failed, state_recovered, lock_takeover, verification, config_warning, state_reset, previous_agent_stopped, task_integrated, merge_conflict, workspaces_recovered, task_retried",
    ],
    [
      "a missing payload",
      '{"terminal_id": "t", "event": "error", "timestamp": "2026-03-14T10:00:00"}',
      "missing: expected a mapping (an object)",
    ],
    ["half a line", '{"terminal_id": "t", "ev', "invalid JSON: unterminated string"],
  ])("reports %s without throwing", (_name, line, message) => {
    const parsed = parseDecisionEvent(line);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem.message).toBe(message);
  });

  it("never throws, whatever it is given", () => {
    const inputs: unknown[] = [
      undefined,
      42,
      "{".repeat(100_000),
      "[".repeat(100_000) + "]".repeat(100_000),
      '{"__proto__": {"polluted": true}, "event": "error"}',
      "\u0000",
      "x".repeat(1_000_000),
    ];
    for (const input of inputs) {
      expect(() => parseDecisionEvent(input as string)).not.toThrow();
      expect(parseDecisionEvent(input as string).ok).toBe(false);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

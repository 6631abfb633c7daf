import { describe, expect, it } from "vitest";
import { mergeStopHook, STOP_HOOK_COMMAND, stopHookSettings } from "./stop-hook-settings.js";

const LOOP_GROUP = { hooks: [{ type: "command", command: STOP_HOOK_COMMAND }] };

function added(text: string | null): unknown {
  const merge = mergeStopHook(text);
  if (merge.kind !== "added") throw new Error(`expected added, got ${JSON.stringify(merge)}`);
  expect(merge.text.endsWith("}\n")).toBe(true);
  return JSON.parse(merge.text);
}

describe("stopHookSettings", () => {
  it("is Claude Code's Stop hook registration of `loop hook stop`", () => {
    expect(stopHookSettings()).toEqual({
      hooks: { Stop: [{ hooks: [{ type: "command", command: "loop hook stop" }] }] },
    });
  });
});

describe("mergeStopHook", () => {
  it("writes the snippet alone for a missing, empty or blank file", () => {
    expect(added(null)).toEqual(stopHookSettings());
    expect(added("")).toEqual(stopHookSettings());
    expect(added("  \n")).toEqual(stopHookSettings());
  });

  it("keeps every other key, every other event and every other Stop hook, in order", () => {
    const settings = {
      model: "sonnet",
      permissions: { allow: ["Bash(npm test:*)"] },
      hooks: {
        PostToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: "prettier" }] }],
        Stop: [{ hooks: [{ type: "command", command: "notify-send done" }] }],
      },
      env: { FOO: "1" },
    };
    const merged = added(JSON.stringify(settings, null, "\t"));
    expect(merged).toEqual({
      ...settings,
      hooks: { ...settings.hooks, Stop: [...settings.hooks.Stop, LOOP_GROUP] },
    });
    expect(Object.keys(merged as object)).toEqual(["model", "permissions", "hooks", "env"]);
  });

  it("adds a Stop list next to other events", () => {
    expect(added('{"hooks":{"PreToolUse":[]}}')).toEqual({
      hooks: { PreToolUse: [], Stop: [LOOP_GROUP] },
    });
  });

  it.each([
    "loop hook stop",
    "  loop hook stop  ",
    "npx loop hook stop",
    "/usr/local/bin/loop hook stop --state-dir /tmp/state",
    "node packages/cli/dist/loop.js hook stop",
  ])("never adds a duplicate of %j", (command) => {
    const text = JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command }] }] } });
    expect(mergeStopHook(text)).toEqual({ kind: "present" });
  });

  it("does not take another command for the hook", () => {
    const text = JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: "command", command: "myloop hook stopper" }] }] },
    });
    expect(mergeStopHook(text).kind).toBe("added");
  });

  it("refuses text that is not JSON, pointing at the error", () => {
    const merge = mergeStopHook('{\n  "model": "sonnet",\n}\n');
    expect(merge).toMatchObject({ kind: "invalid", line: 3, column: 1 });
    if (merge.kind === "invalid") expect(merge.message).toMatch(/^not valid JSON/);
  });

  it.each([
    ["[]", "expected a JSON object"],
    ['"text"', "expected a JSON object"],
    ['{"hooks": []}', '"hooks" must be an object'],
    ['{"hooks": {"Stop": {}}}', '"hooks.Stop" must be a list'],
    ['{"env": ["X=1"]}', '"env" must be an object'],
  ])("refuses %s", (text, message) => {
    const merge = mergeStopHook(text);
    expect(merge.kind).toBe("invalid");
    if (merge.kind === "invalid") expect(merge.message).toContain(message);
  });

  it("sets the block cap next to the user's variables, raising a lower one only", () => {
    const text = JSON.stringify({ env: { DEBUG: "1", CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "8" } });
    const merge = mergeStopHook(text, { command: "loop hook stop", blockCap: 20 });
    expect(merge.kind).toBe("added");
    if (merge.kind !== "added") return;
    expect(JSON.parse(merge.text)).toEqual({
      env: { DEBUG: "1", CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "20" },
      hooks: { Stop: [LOOP_GROUP] },
    });
    expect(mergeStopHook(merge.text, { blockCap: 20 })).toEqual({ kind: "present" });
    expect(mergeStopHook(merge.text, { blockCap: 50 }).kind).toBe("added");
  });

  it("writes the command it is given", () => {
    const merge = mergeStopHook(null, {
      command: "/usr/bin/node /opt/loop/dist/loop.js hook stop",
    });
    expect(merge.kind === "added" && JSON.parse(merge.text).hooks.Stop[0].hooks[0].command).toBe(
      "/usr/bin/node /opt/loop/dist/loop.js hook stop",
    );
  });
});

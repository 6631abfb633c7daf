import { describe, expect, it } from "vitest";
import { analyzeResponse } from "./analyze-response.js";

describe("permission denials", () => {
  it.each([
    ["Permission to use Bash has been denied.", { tool: "Bash", detail: null }],
    [
      "Permission to use Bash with command rm -rf dist has been denied.",
      { tool: "Bash", detail: "rm -rf dist" },
    ],
    [
      "Claude requested permissions to use WebFetch, but you haven't granted it yet.",
      { tool: "WebFetch", detail: null },
    ],
    [
      "Claude requested permissions to write to src/config.ts, but you haven't granted it yet.",
      { tool: "write", detail: "src/config.ts" },
    ],
    ["I don't have permission to run `npm install`.", { tool: "run", detail: "npm install" }],
    [
      "My call to the Bash tool was blocked by the permission settings.",
      { tool: "Bash", detail: "My call to the Bash tool was blocked by the permission settings." },
    ],
    [
      "The push was blocked by the permission settings: `git push origin main`.",
      { tool: "push", detail: "git push origin main" },
    ],
    ["I'm not allowed to edit `.env` files.", { tool: "edit", detail: ".env" }],
  ])("reads %j", (text, denial) => {
    expect(analyzeResponse(text).permissionDenials).toEqual([denial]);
  });

  it.each([
    ["an OS error", "EACCES: permission denied, open '/etc/hosts'"],
    ["a report in code", "```\nPermission to use Bash has been denied.\n```"],
    ["a report in a quote", "> Permission to use Bash has been denied."],
    ["talk about permissions", "I added a permissions check to the upload handler."],
    ["a rule the agent implemented", "Guests are not allowed to edit other people's posts now."],
  ])("ignores %s", (_label, text) => {
    expect(analyzeResponse(text).permissionDenials).toEqual([]);
  });

  it("merges the executor's denials first and drops repeats", () => {
    const signals = analyzeResponse(
      "Permission to use Bash has been denied. Permission to use bash has been denied. Permission to use Write has been denied.",
      {
        permissionDenials: [
          { tool: "Bash", detail: null },
          { tool: "Edit", detail: "src/a.ts" },
        ],
      },
    );
    expect(signals.permissionDenials).toEqual([
      { tool: "Bash", detail: null },
      { tool: "Edit", detail: "src/a.ts" },
      { tool: "Write", detail: null },
    ]);
  });

  it("keeps the executor's denials when the text has none", () => {
    const denial = { tool: "mcp__github__create_issue", detail: '{"title":"x"}' };
    expect(analyzeResponse("Working.", { permissionDenials: [denial] }).permissionDenials).toEqual([
      denial,
    ]);
  });
});

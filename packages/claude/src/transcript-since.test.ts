import { describe, expect, it } from "vitest";
import { countEditedFiles, transcriptSince } from "./transcript-since.js";

function toolUse(name: string, input: Record<string, unknown>): string {
  return JSON.stringify({
    type: "assistant",
    message: { role: "assistant", content: [{ type: "tool_use", id: "t", name, input }] },
  });
}

describe("countEditedFiles", () => {
  const lines = [
    JSON.stringify({ type: "user", message: { role: "user", content: "Go." } }),
    toolUse("Edit", { file_path: "/p/a.ts", old_string: "x", new_string: "y" }),
    toolUse("Read", { file_path: "/p/b.ts" }),
    toolUse("Write", { file_path: "/p/c.ts", content: "" }),
    toolUse("MultiEdit", { file_path: "/p/a.ts", edits: [] }),
    toolUse("NotebookEdit", { notebook_path: "/p/n.ipynb" }),
    toolUse("Bash", { command: "echo hi > /p/d.ts" }),
    "{ not json",
  ];
  const text = `${lines.join("\n")}\n`;

  it("counts distinct files edited by the editing tools, not reads or Bash", () => {
    expect(countEditedFiles(text)).toBe(3);
  });

  it("counts only the lines written since the previous stop", () => {
    const count = (from: number) => countEditedFiles(transcriptSince(text, from).recent);
    expect([count(3), count(4), count(8)]).toEqual([3, 2, 0]);
    expect(transcriptSince(text, 6)).toEqual({ recent: lines.slice(6).join("\n"), lines: 8 });
  });

  it("reads the whole transcript when it is shorter than the previous count", () => {
    expect(transcriptSince(text, 50)).toEqual({ recent: lines.join("\n"), lines: 8 });
  });

  it("reads a user message quoting a tool use as no edit", () => {
    const quoted = JSON.stringify({
      type: "user",
      message: {
        role: "user",
        content: [{ type: "tool_use", name: "Edit", input: { file_path: "/x" } }],
      },
    });
    expect(countEditedFiles(quoted)).toBe(0);
  });
});

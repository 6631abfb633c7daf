import { describe, expect, it } from "vitest";
import { PROMPT_PLACEHOLDER_NAMES, PROMPT_PLACEHOLDERS } from "./prompt-placeholders.js";
import { DEFAULT_PROMPT_TEMPLATE, LOOP_INSTRUCTIONS_TEMPLATE } from "./prompt-template.js";
import { PromptTemplateError } from "./prompt-template-error.js";
import { nearestPlaceholder, parsePromptTemplate } from "./prompt-template-parser.js";

function issuesOf(text: string) {
  try {
    parsePromptTemplate(text, { file: "PROMPT.md" });
  } catch (error) {
    if (PromptTemplateError.isInstance(error)) return error.issues;
    throw error;
  }
  throw new Error("expected a PromptTemplateError");
}

describe("parsePromptTemplate", () => {
  it("splits text and placeholders, spaces inside the braces allowed", () => {
    expect(parsePromptTemplate("Do {{task_id}} in {{ plan_path }}.").segments).toEqual([
      { kind: "text", text: "Do " },
      { kind: "placeholder", name: "task_id", standalone: false },
      { kind: "text", text: " in " },
      { kind: "placeholder", name: "plan_path", standalone: false },
      { kind: "text", text: "." },
    ]);
  });

  it("marks a placeholder alone on its line, whatever the line ending", () => {
    for (const text of [
      "A\n  {{context}}\t\nB",
      "A\r\n{{context}}\r\nB",
      "A\r{{context}}\rB",
      "{{context}}",
    ]) {
      const placeholder = parsePromptTemplate(text).segments.find(
        (segment) => segment.kind === "placeholder",
      );
      expect(placeholder).toEqual({ kind: "placeholder", name: "context", standalone: true });
    }
    const inline = parsePromptTemplate("A {{context}}\nB").segments[1];
    expect(inline).toEqual({ kind: "placeholder", name: "context", standalone: false });
  });

  it("turns an escape into literal text", () => {
    expect(parsePromptTemplate("\\{{task_id}} {{kind}}").segments).toEqual([
      { kind: "text", text: "{{task_id}} " },
      { kind: "placeholder", name: "kind", standalone: false },
    ]);
  });

  it("reads a template without known placeholders as a plain prompt, as is", () => {
    const text = "Follow @fix_plan.md. {{ user.name }} {{#each}} {{ .Name }} \\{{x}} {{}}";
    expect(parsePromptTemplate(text)).toEqual({
      text,
      segments: [{ kind: "text", text }],
      usesPlaceholders: false,
    });
  });

  it("rejects every unknown name in a template that uses placeholders", () => {
    expect(
      issuesOf("{{kind}} {{ user.name }}\n\n  {{iteraton}}").map((issue) => issue.message),
    ).toEqual([
      expect.stringMatching(/^unknown placeholder \{\{user\.name\}\}: valid placeholders are /),
      "unknown placeholder {{iteraton}}: did you mean {{iteration}}?",
    ]);
    expect(issuesOf("{{kind}}\n\n  {{iteraton}}")[0]).toMatchObject({ line: 3, column: 3 });
  });

  it("counts columns in UTF-16 code units after emoji", () => {
    expect(issuesOf("🚀 {{task_idd}}")[0]).toMatchObject({ line: 1, column: 4 });
  });

  it("parses its own templates without error", () => {
    expect(parsePromptTemplate(DEFAULT_PROMPT_TEMPLATE).usesPlaceholders).toBe(true);
    expect(parsePromptTemplate(LOOP_INSTRUCTIONS_TEMPLATE).usesPlaceholders).toBe(true);
  });
});

describe("nearestPlaceholder", () => {
  it("suggests across case, separators and small typos", () => {
    expect(nearestPlaceholder("TASK_ID")).toBe("task_id");
    expect(nearestPlaceholder("task-title")).toBe("task_title");
    expect(nearestPlaceholder("plan.path")).toBe("plan_path");
    expect(nearestPlaceholder("maxattempts")).toBe("max_attempts");
    expect(nearestPlaceholder("statusblock")).toBe("status_block");
  });

  it("suggests nothing for unrelated or short names", () => {
    for (const name of ["id", "name", "user.name", "title", "foo", "x"]) {
      expect(nearestPlaceholder(name)).toBeUndefined();
    }
  });

  it("knows every documented placeholder", () => {
    expect(PROMPT_PLACEHOLDER_NAMES).toEqual(Object.keys(PROMPT_PLACEHOLDERS));
    for (const name of PROMPT_PLACEHOLDER_NAMES) expect(nearestPlaceholder(name)).toBe(name);
  });
});

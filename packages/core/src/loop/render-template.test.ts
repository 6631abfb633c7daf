import { describe, expect, it } from "vitest";
import { PROMPT_PLACEHOLDER_NAMES } from "./prompt-placeholders.js";
import { parsePromptTemplate } from "./prompt-template-parser.js";
import { type PromptValues, renderTemplate } from "./render-template.js";

const empty = Object.fromEntries(
  PROMPT_PLACEHOLDER_NAMES.map((name) => [name, ""]),
) as PromptValues;

function render(template: string, values: Partial<PromptValues> = {}): string {
  return renderTemplate(parsePromptTemplate(template), { ...empty, ...values });
}

describe("renderTemplate", () => {
  it("inserts values as they are, never reading them as a template", () => {
    expect(render("[{{task_title}}]", { task_title: "{{plan_path}} \\{{x}} $(rm -rf ~)" })).toBe(
      "[{{plan_path}} \\{{x}} $(rm -rf ~)]",
    );
  });

  it("keeps the line of a standalone placeholder that has a value", () => {
    expect(render("A\n\n{{context}}\n\nB", { context: "C" })).toBe("A\n\nC\n\nB");
  });

  it("drops an empty standalone placeholder's line and the blank line after it", () => {
    expect(render("A\n\n{{context}}\n\nB")).toBe("A\n\nB");
    expect(render("A\r\n\r\n  {{context}}  \r\n\r\nB")).toBe("A\r\n\r\nB");
    expect(render("A\n{{context}}\nB")).toBe("A\nB");
    expect(render("{{context}}\n\nB")).toBe("B");
    expect(render("A\n\n{{context}}")).toBe("A\n\n");
  });

  it("drops consecutive empty standalone placeholders", () => {
    expect(render("A\n\n{{context}}\n\n{{completion_promise}}\n\nB")).toBe("A\n\nB");
    expect(render("A\n{{context}}\n{{completion_promise}}\nB")).toBe("A\nB");
  });

  it("keeps an empty inline placeholder's line", () => {
    expect(render("Task: {{task_id}}\n\nB")).toBe("Task: \n\nB");
  });
});

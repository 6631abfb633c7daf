import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePlan } from "../plan/parse-plan.js";
import { buildPrompt } from "./build-prompt.js";
import type { PromptContext } from "./prompt-context.js";
import { PROMPT_PLACEHOLDER_NAMES } from "./prompt-placeholders.js";
import { PromptTemplateError } from "./prompt-template-error.js";

const doc = readFileSync(new URL("../../../../docs/prompts.md", import.meta.url), "utf8");
const lines = doc.split("\n");

/** The fenced block starting at or after line index `from`: its content and the line after it. */
function fencedBlock(from: number): { content: string; next: number } {
  let start = from;
  while (start < lines.length && !/^`{3,}/.test(lines[start] ?? "")) start += 1;
  const fence = /^`{3,}/.exec(lines[start] ?? "")?.[0] ?? "```";
  let end = start + 1;
  while (end < lines.length && lines[end] !== fence) end += 1;
  return { content: `${lines.slice(start + 1, end).join("\n")}\n`, next: end + 1 };
}

/** The line indexes of `<!-- kind: json -->` markers, with their JSON. */
function markers(kind: string): { index: number; options: Record<string, unknown> }[] {
  return lines.flatMap((text, index) => {
    const match = new RegExp(`^<!-- ${kind}(?:: (.*))? -->$`).exec(text);
    return match === null ? [] : [{ index, options: JSON.parse(match[1] ?? "{}") }];
  });
}

const planMarker = markers("prompt-sample-plan")[0];
const samplePlan = planMarker === undefined ? "" : fencedBlock(planMarker.index + 1).content;

/** The context an example's options describe, on the sample plan. */
function exampleContext(options: Record<string, unknown>): PromptContext {
  const { task: taskId, template: _template, excerpt: _excerpt, ...fields } = options;
  const task = parsePlan(samplePlan).tasks.find((candidate) => candidate.id === taskId);
  return {
    kind: "task",
    task: task ?? null,
    plan: { path: "plan.md", text: samplePlan },
    iteration: 1,
    attempt: 1,
    maxAttempts: 3,
    unmetRequirements: [],
    concerns: [],
    unansweredQuestions: [],
    previousFailure: null,
    completionPromise: null,
    ...fields,
  } as PromptContext;
}

describe("docs/prompts.md", () => {
  it("has a sample plan and examples", () => {
    expect(samplePlan).toContain("TASK-002");
    expect(markers("prompt-example").length).toBeGreaterThanOrEqual(3);
    expect(markers("prompt-error")).toHaveLength(1);
  });

  for (const { index, options } of markers("prompt-example")) {
    it(`example at line ${index + 1} is what buildPrompt gives`, () => {
      let next = index + 1;
      let template: string | null = null;
      if (options.template === true) {
        const block = fencedBlock(next);
        template = block.content;
        next = block.next;
      }
      const shown = fencedBlock(next).content;
      const prompt = buildPrompt(exampleContext(options), { template });
      if (options.excerpt === true) expect(prompt).toContain(shown);
      else expect(prompt).toBe(shown);
    });
  }

  for (const { index, options } of markers("prompt-error")) {
    it(`error example at line ${index + 1} is the error buildPrompt throws`, () => {
      const template = fencedBlock(index + 1);
      const expected = fencedBlock(template.next).content.trimEnd();
      let message = "";
      try {
        buildPrompt(exampleContext({ task: "TASK-002" }), {
          template: template.content,
          templateFile: String(options.file),
        });
      } catch (error) {
        if (!PromptTemplateError.isInstance(error)) throw error;
        message = error.message;
      }
      expect(message).toBe(expected);
    });
  }

  it("lists every placeholder, in order", () => {
    const listed = lines.flatMap((text) => /^\| `\{\{(\w+)\}\}` +\|/.exec(text)?.[1] ?? []);
    expect(listed).toEqual([...PROMPT_PLACEHOLDER_NAMES]);
  });
});

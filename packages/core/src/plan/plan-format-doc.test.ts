import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePlan } from "./parse-plan.js";
import { PlanParseError } from "./plan-parse-error.js";
import { PlanUpdateError } from "./plan-update-error.js";
import { parsePlanRequirements } from "./requirements.js";
import { taskDependencies } from "./task-dependencies.js";
import { type PlanEdit, updatePlan } from "./update-plan.js";

const doc = readFileSync(new URL("../../../../docs/plan-format.md", import.meta.url), "utf8");
const lines = doc.split("\n");

interface DocExample {
  readonly kind: string;
  readonly argument: string;
  readonly line: number;
  readonly input: string;
  readonly expected: string;
}

/** Reads the fenced block starting at or after `from`: its content and the line after it. */
function fencedBlock(from: number): { content: string; next: number } {
  let start = from;
  while (start < lines.length && !/^`{3,}/.test(lines[start] ?? "")) start += 1;
  const fence = /^`{3,}/.exec(lines[start] ?? "")?.[0] ?? "```";
  let end = start + 1;
  while (end < lines.length && lines[end] !== fence) end += 1;
  return { content: `${lines.slice(start + 1, end).join("\n")}\n`, next: end + 1 };
}

function docExamples(): DocExample[] {
  const examples: DocExample[] = [];
  for (const [index, text] of lines.entries()) {
    const marker = /^<!-- plan-example: (\S+)(?: (.*))? -->$/.exec(text);
    if (marker === null) continue;
    const input = fencedBlock(index + 1);
    const expected = fencedBlock(input.next);
    examples.push({
      kind: marker[1] ?? "",
      argument: marker[2] ?? "",
      line: index + 1,
      input: input.content,
      expected: expected.content,
    });
  }
  return examples;
}

function thrownMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (PlanParseError.isInstance(error) || PlanUpdateError.isInstance(error)) return error.message;
    throw error;
  }
  throw new Error("expected an error");
}

const checks: Readonly<Record<string, (example: DocExample) => void>> = {
  tasks: ({ input, expected }) => {
    const wanted: unknown[] = JSON.parse(expected);
    const tasks = parsePlan(input).tasks;
    expect(tasks).toHaveLength(wanted.length);
    for (const [index, task] of tasks.entries()) expect(task).toMatchObject(wanted[index] ?? {});
  },
  status: ({ input, expected }) => {
    expect(parsePlan(input).status).toEqual(JSON.parse(expected));
  },
  requirements: ({ input, expected }) => {
    expect(parsePlan(input).requirements).toEqual(JSON.parse(expected));
    expect(parsePlanRequirements(input)).toEqual(JSON.parse(expected));
  },
  update: ({ input, expected, argument }) => {
    expect(updatePlan(input, JSON.parse(argument) as PlanEdit)).toBe(expected);
  },
  "parse-error": ({ input, expected }) => {
    expect(thrownMessage(() => parsePlan(input, { file: "plan.md" }))).toBe(expected.trimEnd());
  },
  dependencies: ({ input, expected }) => {
    const { tasks } = parsePlan(input);
    expect(Object.fromEntries(taskDependencies(tasks))).toEqual(JSON.parse(expected));
  },
  "update-error": ({ input, expected, argument }) => {
    const edit = JSON.parse(argument) as PlanEdit;
    expect(thrownMessage(() => updatePlan(input, edit, { file: "plan.md" }))).toBe(
      expected.trimEnd(),
    );
  },
};

describe("docs/plan-format.md", () => {
  const examples = docExamples();

  it("has examples of every kind", () => {
    expect(new Set(examples.map((example) => example.kind))).toEqual(new Set(Object.keys(checks)));
  });

  for (const example of examples) {
    it(`example at line ${example.line} (${example.kind}) is true`, () => {
      const check = checks[example.kind];
      expect(check).toBeDefined();
      check?.(example);
    });
  }
});

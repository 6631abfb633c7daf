// The plans the fast parser must read exactly as the reference does: every markdown example of
// the docs, every plan fixture, and realistic plans.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { realisticPlan } from "../../bench/support/realistic-plan.js";
import { planCorpus } from "../../packages/core/src/plan/fixtures/plan-corpus.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** A named input. */
export interface CorpusEntry {
  readonly name: string;
  readonly text: string;
}

/** The fenced blocks of a markdown file whose info string is `markdown` or `md`. */
export function markdownExamples(text: string): string[] {
  const examples: string[] = [];
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index += 1) {
    const opener = /^(`{3,}|~{3,})\s*(markdown|md)\b/u.exec(lines[index] ?? "");
    if (opener === null) continue;
    const fence = opener[1] ?? "```";
    let end = index + 1;
    while (end < lines.length && !(lines[end] ?? "").startsWith(fence)) end += 1;
    examples.push(`${lines.slice(index + 1, end).join("\n")}\n`);
    index = end;
  }
  return examples;
}

function filesUnder(directory: string, extension: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) files.push(...filesUnder(path, extension));
    else if (entry.name.endsWith(extension)) files.push(path);
  }
  return files.sort();
}

/** Every markdown example in docs/*.md. */
export function docExamples(): CorpusEntry[] {
  return filesUnder(join(root, "docs"), ".md")
    .filter((path) => !path.includes(`${join("docs", "api")}`))
    .flatMap((path) => {
      const examples = markdownExamples(readFileSync(path, "utf8"));
      return examples.map((text, index) => ({
        name: `${path.slice(root.length)} #${index + 1}`,
        text,
      }));
    });
}

/** The plan fixtures: the corpus of the plan tests and test/fixtures/**\/*.md. */
export function planFixtures(): CorpusEntry[] {
  const corpus = Object.entries(planCorpus).map(([name, text]) => ({ name, text }));
  const files = filesUnder(join(root, "test", "fixtures"), ".md").map((path) => ({
    name: path.slice(root.length),
    text: readFileSync(path, "utf8"),
  }));
  return [...corpus, ...files];
}

/** Realistic plans (bench/support/realistic-plan.ts) of several sizes and shapes. */
export function realisticPlans(): CorpusEntry[] {
  return [
    { name: "realisticPlan(1)", text: realisticPlan(1) },
    { name: "realisticPlan(45)", text: realisticPlan(45, { doneEvery: 0 }) },
    { name: "realisticPlan(200)", text: realisticPlan(200, { doneEvery: 2, requirements: 3 }) },
    { name: "realisticPlan(1000)", text: realisticPlan(1000) },
  ];
}

import { ConfigError, configJsonSchema, DEFAULT_CONFIG, parseConfig } from "@loop/core";
import { describe, expect, it } from "vitest";
import { configTemplate } from "./config-template.js";

const template = configTemplate({ schemaReference: "./config.schema.json" });

/** The template with every key line uncommented: `#key: value` → `key: value`. */
function uncommentAll(text: string): string {
  return text.replace(/^( *)#(?=[a-z_])/gm, "$1");
}

/** Every key path of a config object, sections and settings, parents first. */
function keyPaths(value: unknown, parents: string[] = []): string[][] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => [
    [...parents, key],
    ...keyPaths(child, [...parents, key]),
  ]);
}

/** The description of a key path in the JSON Schema. */
function schemaDescription(path: readonly string[]): string {
  let node: unknown = configJsonSchema();
  for (const key of path) {
    node = (node as { properties: Record<string, unknown> }).properties[key];
  }
  return (node as { description: string }).description;
}

describe("configTemplate", () => {
  it("starts with the yaml-language-server schema line", () => {
    expect(template.split("\n")[0]).toBe("# yaml-language-server: $schema=./config.schema.json");
  });

  it("parses to the defaults as written, every key commented out", () => {
    expect(parseConfig(template)).toEqual(DEFAULT_CONFIG);
    expect(template).not.toMatch(/^ *[a-z_]+:/m);
  });

  it("parses to the defaults with every key uncommented", () => {
    const uncommented = uncommentAll(template);
    expect(uncommented).not.toBe(template);
    expect(parseConfig(uncommented, { file: "config.yaml" })).toEqual(DEFAULT_CONFIG);
  });

  it("writes every key of the schema at its depth, after its description", () => {
    const lines = uncommentAll(template).split("\n");
    const paths = keyPaths(DEFAULT_CONFIG);
    expect(paths.length).toBeGreaterThan(30);
    for (const path of paths) {
      const indent = "  ".repeat(path.length - 1);
      let index = -1;
      path.forEach((key, depth) => {
        const prefix = `${"  ".repeat(depth)}${key}:`;
        index = lines.findIndex((line, at) => at > index && line.startsWith(prefix));
      });
      expect(index, `no line for ${path.join(".")}`).toBeGreaterThan(0);
      const comments: string[] = [];
      for (let above = index - 1; lines[above]?.startsWith(`${indent}# `); above -= 1) {
        comments.unshift((lines[above] as string).slice(indent.length + 2));
      }
      expect(comments.join(" "), `description of ${path.join(".")}`).toBe(schemaDescription(path));
    }
  });

  it("lets a user uncomment one setting with its section", () => {
    const edited = template
      .replace("#limits:", "limits:")
      .replace("  #max_iterations: 20", "  #max_iterations: 20\n  max_iterations: 7");
    expect(parseConfig(edited).limits.max_iterations).toBe(7);
  });

  it("writes given settings uncommented, their section too, and keeps the rest commented", () => {
    const text = configTemplate({
      schemaReference: "https://example.com/schema.json",
      settings: { "plans.default_plan": "docs/my plan.md" },
    });
    expect(text).toMatch(/^plans:$/m);
    expect(text).toMatch(/^ {2}default_plan: docs\/my plan\.md$/m);
    const config = parseConfig(text);
    expect(config).toEqual({
      ...DEFAULT_CONFIG,
      plans: { ...DEFAULT_CONFIG.plans, default_plan: "docs/my plan.md" },
    });
  });

  it("keeps its lines within 100 characters", () => {
    const long = template.split("\n").filter((line) => line.length > 100);
    expect(long).toEqual([]);
  });

  it("fails loudly when a key line is broken, so the test above can fail", () => {
    expect(() =>
      parseConfig(uncommentAll(template).replace("max_attempts", "max_attempt")),
    ).toThrow(ConfigError);
  });
});

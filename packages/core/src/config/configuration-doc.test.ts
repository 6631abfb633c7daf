import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ConfigError } from "./config-error.js";
import { configSettingPaths } from "./config-keys.js";
import { CONFIG_WARNING_CODES } from "./config-warnings.js";
import { DEFAULT_CONFIG } from "./default-config.js";
import { parseConfig } from "./parse-config.js";

// docs/configuration.md is written by hand; these tests keep it from drifting from the schema.

const doc = readFileSync(new URL("../../../../docs/configuration.md", import.meta.url), "utf8");

/** The text of the `## heading` section, up to the next `## ` heading. */
function section(heading: string): string {
  const start = doc.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`docs/configuration.md has no "## ${heading}" section`);
  const end = doc.indexOf("\n## ", start + 1);
  return doc.slice(start, end === -1 ? undefined : end);
}

/** The fenced code blocks of `text` in the given language, in order. */
function codeBlocks(text: string, language: string): string[] {
  const pattern = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, "g");
  return [...text.matchAll(pattern)].map((match) => match[1] ?? "");
}

/** A default as the doc's tables show it: text bare, lists as `[a, b]`. */
function renderDefault(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(renderDefault).join(", ")}]`;
  return typeof value === "string" ? value : String(value);
}

/** The value at a key path of a plain object. */
function valueAt(root: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>(
    (value, key) =>
      typeof value === "object" && value !== null
        ? (value as Record<string, unknown>)[key]
        : undefined,
    root,
  );
}

/** The cells of the settings table row of `key`, keyed by column. */
function settingRows(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of section("Settings").split("\n")) {
    const match = /^\|\s*`([a-z_.]+)`\s*\|/.exec(line);
    if (match?.[1] === undefined) continue;
    rows.set(
      match[1],
      line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const settings = configSettingPaths();

describe("docs/configuration.md", () => {
  const rows = settingRows();

  it.each(settings.map((path) => [path.join("."), path]))(
    "documents %s with its type, default and meaning",
    (dotted, path) => {
      const cells = rows.get(dotted);
      expect(cells, `no table row for ${dotted}`).toBeDefined();
      const [, type, defaultValue, meaning] = cells ?? [];
      expect(type).toMatch(/\w/);
      expect(defaultValue).toBe(`\`${renderDefault(valueAt(DEFAULT_CONFIG, path))}\``);
      expect(meaning?.length).toBeGreaterThan(10);
    },
  );

  it("documents no key the schema lacks", () => {
    const known = new Set(settings.map((path) => path.join(".")));
    expect([...rows.keys()].filter((key) => !known.has(key))).toEqual([]);
  });

  it("has a table under a heading for every section", () => {
    for (const path of settings) {
      expect(section("Settings")).toContain(`\n### \`${path[0]}\`\n`);
    }
  });

  it("gives a full example with every key, at its default", () => {
    const [example] = codeBlocks(section("Full example"), "yaml");
    if (example === undefined) throw new Error("no yaml block under ## Full example");
    const raw: unknown = parse(example);
    const missing = settings.filter((path) => valueAt(raw, path) === undefined);
    expect(missing.map((path) => path.join("."))).toEqual([]);
    expect(parseConfig(example)).toEqual(DEFAULT_CONFIG);
  });

  it("shows the error parseConfig gives for its bad example", () => {
    const errors = section("Errors");
    const [yaml] = codeBlocks(errors, "yaml");
    const [expected] = codeBlocks(errors, "text");
    let message = "";
    try {
      parseConfig(yaml ?? "", { file: "config.yaml" });
    } catch (error) {
      if (ConfigError.isInstance(error)) message = error.message;
    }
    expect(`${message}\n`).toBe(expected);
  });

  it("parses its opening example", () => {
    const [opening] = codeBlocks(doc.slice(0, doc.indexOf("\n## ")), "yaml");
    expect(parseConfig(opening ?? "").limits.max_iterations).toBe(50);
  });

  it.each(CONFIG_WARNING_CODES)("explains the warning %s", (code) => {
    expect(section("Warnings")).toMatch(new RegExp(`^\\|\\s*\`${code}\`\\s*\\|`, "m"));
  });
});

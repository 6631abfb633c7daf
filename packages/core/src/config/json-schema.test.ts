import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configSettingPaths } from "./config-keys.js";
import { DEFAULT_CONFIG } from "./default-config.js";
import { CONFIG_SCHEMA_ID, configJsonSchema, configJsonSchemaText } from "./json-schema.js";

const committedFile = new URL("../../config.schema.json", import.meta.url);

/** A JSON Schema node, as far as this test reads it. */
interface SchemaNode {
  readonly type?: string;
  readonly description?: string;
  readonly default?: unknown;
  readonly properties?: Record<string, SchemaNode>;
  readonly additionalProperties?: boolean;
  readonly required?: readonly string[];
}

/** Every object node of the schema with its path, the root first. */
function objectNodes(node: SchemaNode, path = "$"): [string, SchemaNode][] {
  if (node.type !== "object") return [];
  const children = Object.entries(node.properties ?? {}).flatMap(([key, child]) =>
    objectNodes(child, `${path}.${key}`),
  );
  return [[path, node], ...children];
}

/** The schema node of a key path. */
function nodeAt(schema: SchemaNode, path: readonly string[]): SchemaNode | undefined {
  let node: SchemaNode | undefined = schema;
  for (const key of path) node = node?.properties?.[key];
  return node;
}

describe("configJsonSchema", () => {
  const schema = configJsonSchema() as SchemaNode & Record<string, unknown>;

  it("is in sync with packages/core/config.schema.json", () => {
    const committed = readFileSync(committedFile, "utf8");
    expect(
      committed,
      "packages/core/config.schema.json is out of date: run `pnpm exec tsx packages/core/scripts/write-config-schema.ts`",
    ).toBe(configJsonSchemaText());
  });

  it("is pretty JSON with a trailing newline", () => {
    const text = configJsonSchemaText();
    expect(text.endsWith("}\n")).toBe(true);
    expect(text).toContain('\n  "$id": ');
    expect(JSON.parse(text)).toEqual(schema);
  });

  it("is a draft 2020-12 schema with an id, a title and a description", () => {
    expect(Object.keys(schema).slice(0, 4)).toEqual(["$schema", "$id", "title", "description"]);
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.$id).toBe(CONFIG_SCHEMA_ID);
    expect(schema.title).toContain("config.yaml");
    expect(schema.description).toContain(".claude/loop/config.yaml");
  });

  it("rejects unknown keys in every mapping", () => {
    const objects = objectNodes(schema);
    expect(objects.map(([path]) => path)).toContain("$.exit_policy");
    for (const [path, node] of objects) {
      expect(node.additionalProperties, path).toBe(false);
    }
  });

  it("requires no key", () => {
    for (const [path, node] of objectNodes(schema)) {
      expect(node.required ?? [], path).toEqual([]);
    }
  });

  it.each(configSettingPaths().map((path) => [path.join("."), path]))(
    "describes %s and gives its default",
    (_label, path) => {
      const node = nodeAt(schema, path);
      expect(node?.description).toMatch(/\w/);
      const expected = path.reduce<unknown>(
        (value, key) => (value as Record<string, unknown>)[key],
        DEFAULT_CONFIG,
      );
      expect(node?.default).toEqual(expected);
    },
  );

  it("describes every section", () => {
    for (const [path, node] of objectNodes(schema)) {
      expect(node.description, path).toMatch(/\w/);
    }
  });

  it("returns a new object on each call", () => {
    expect(configJsonSchema()).not.toBe(configJsonSchema());
  });
});

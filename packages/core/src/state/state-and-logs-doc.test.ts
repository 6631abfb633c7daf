import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { DECISION_EVENT_NAMES } from "../observe/decision-event.js";
import { PAYLOAD_SCHEMAS } from "../observe/decision-event-payloads.js";
import { LoopMetricsSchema } from "../observe/loop-metrics.js";
import { parseDecisionEvent } from "../observe/parse-decision-event.js";
import { LoopStateSchema } from "./loop-state.js";
import { sanitizeTerminalId } from "./safe-terminal-id.js";
import { TERMINAL_ID_SOURCES } from "./terminal-id.js";

// docs/state-and-logs.md must stay true of the code: every field and event documented, every
// example valid, the terminal id order as implemented.

const doc = readFileSync(new URL("../../../../docs/state-and-logs.md", import.meta.url), "utf8");
const lines = doc.split("\n");

/** The fenced block after the marker line `marker`. */
function exampleAfter(marker: string): string {
  const start = lines.indexOf(marker);
  expect(start, `marker ${marker}`).toBeGreaterThanOrEqual(0);
  const open = lines.findIndex((line, index) => index > start && line.startsWith("```"));
  const close = lines.findIndex((line, index) => index > open && line.startsWith("```"));
  return lines.slice(open + 1, close).join("\n");
}

/** The documented field names in the table rows of a section (`| \`name\` | …`). */
function tableFields(heading: string, nextHeading = /^#{2,3} /): string[] {
  const start = lines.indexOf(heading);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((line, index) => index > start && nextHeading.test(line));
  return lines
    .slice(start + 1, end === -1 ? undefined : end)
    .map((line) => /^\| `([a-z_.]+)` \|/.exec(line)?.[1])
    .filter((field): field is string => field !== undefined);
}

/**
 * Field paths of an object schema: `a`, and `a.b` for the fields of sections (and of the
 * objects in a list of them).
 */
function fieldPaths(schema: z.ZodType, prefix = ""): string[] {
  let inner: z.ZodType = schema;
  while (
    inner instanceof z.ZodOptional ||
    inner instanceof z.ZodNullable ||
    inner instanceof z.ZodDefault ||
    inner instanceof z.ZodArray
  ) {
    inner = (inner instanceof z.ZodArray ? inner.element : inner.unwrap()) as z.ZodType;
  }
  if (!(inner instanceof z.ZodObject)) return [];
  return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, field]) => {
    const path = `${prefix}${key}`;
    const nested = fieldPaths(field, `${path}.`);
    return nested.length > 0 ? nested : [path];
  });
}

/**
 * Every field path is documented (itself, or the section holding it), and every documented
 * field exists.
 */
function expectAllDocumented(documented: readonly string[], paths: readonly string[]): void {
  for (const path of paths) {
    const covered = documented.includes(path) || documented.includes(path.split(".")[0] ?? "");
    expect(covered, path).toBe(true);
  }
  for (const field of documented) {
    const known = paths.some((path) => path === field || path.startsWith(`${field}.`));
    expect(known, `documented ${field}`).toBe(true);
  }
}

describe("docs/state-and-logs.md", () => {
  it("documents every loop_state field", () => {
    const documented = [
      ...tableFields("### The seed's fields"),
      ...tableFields("### The engine's fields"),
    ];
    expectAllDocumented(documented, fieldPaths(LoopStateSchema));
  });

  it("shows a valid loop_state example", () => {
    const example: unknown = JSON.parse(exampleAfter("<!-- state-example -->"));
    expect(LoopStateSchema.safeParse(example).error?.issues).toBeUndefined();
  });

  it("documents every loop_metrics field and shows a valid example", () => {
    expect(tableFields("## loop_metrics.json").sort()).toEqual(
      fieldPaths(LoopMetricsSchema).sort(),
    );
    expect(
      LoopMetricsSchema.safeParse(JSON.parse(exampleAfter("<!-- metrics-example -->"))).success,
    ).toBe(true);
  });

  it.each(DECISION_EVENT_NAMES)("documents %s with its fields and a valid example line", (name) => {
    expectAllDocumented(tableFields(`### \`${name}\``), fieldPaths(PAYLOAD_SCHEMAS[name]));
    const parsed = parseDecisionEvent(exampleAfter(`<!-- event-example: ${name} -->`));
    expect(parsed.ok ? parsed.event.event : parsed.problem.message).toBe(name);
  });

  it("lists the terminal id sources in the order getTerminalId reads them", () => {
    const rows = lines.filter((line) => /^\| \d+ \| `[A-Z_]+`/.test(line));
    const variables = rows.map((row) =>
      [...(row.split("|")[2]?.matchAll(/`([A-Z_]+)`/g) ?? [])].map((match) => match[1]),
    );
    expect(variables).toEqual([
      ["LOOP_TERMINAL_ID"],
      ...TERMINAL_ID_SOURCES.map((source) => [...source.variables]),
    ]);
    const prefixes = rows.slice(1).map((row) => /\| `([a-z0-9]+)-/.exec(row)?.[1]);
    expect(prefixes).toEqual(TERMINAL_ID_SOURCES.map((source) => source.prefix));
  });

  it("shows sanitized ids as sanitizeTerminalId makes them", () => {
    const examples = [...doc.matchAll(/^\| `([^`]+)` \| `([A-Za-z0-9._-]+)` \|$/gm)];
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const [, raw, id] of examples) expect(sanitizeTerminalId(raw ?? "")).toBe(id);
    expect(doc).toContain(`| the empty text | \`${sanitizeTerminalId("")}\` |`);
  });
});

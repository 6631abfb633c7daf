import { type ConfigEntry, configEntries } from "./config-entries.js";
import { wrapText } from "./wrap-text.js";
import { formatYamlValue } from "./yaml-value.js";

/** Options of {@link configTemplate}. */
export interface ConfigTemplateOptions {
  /**
   * The JSON Schema reference of the first line (`# yaml-language-server: $schema=…`): a path
   * relative to the config file, or a URL.
   */
  readonly schemaReference: string;
  /**
   * Settings written uncommented, with these values instead of their defaults, by dotted key
   * path (`{ "plans.default_plan": "tasks/plan.md" }`). Their sections are uncommented too.
   */
  readonly settings?: Readonly<Record<string, unknown>> | undefined;
}

/** How wide the template's lines are, at most (a long default value may exceed it). */
const WIDTH = 100;
const INDENT = "  ";

function header(schemaReference: string): string[] {
  return [
    `# yaml-language-server: $schema=${schemaReference}`,
    "#",
    "# Settings of the loop (docs/configuration.md). Every key is optional: each one is shown",
    "# commented out, at its default. To change one, delete the `#` in front of it and in front of",
    "# its section's name, for example:",
    "#",
    "#   exit_policy:",
    "#     min_completion_indicators: 3",
    "#",
    "# `loop validate` checks this file and names every problem as file:line:column.",
  ];
}

function describe(description: string, indent: string): string[] {
  if (description === "") return [];
  return wrapText(description, WIDTH - indent.length - 2).map((line) => `${indent}# ${line}`);
}

/** Whether any of `prefix`'s settings is written uncommented. */
function hasSetting(settings: Readonly<Record<string, unknown>>, prefix: string): boolean {
  return Object.keys(settings).some((path) => path.startsWith(`${prefix}.`));
}

function entryLines(
  entry: ConfigEntry,
  parents: readonly string[],
  settings: Readonly<Record<string, unknown>>,
): string[] {
  const indent = INDENT.repeat(parents.length);
  const path = [...parents, entry.key].join(".");
  const lines = describe(entry.description, indent);
  if (entry.kind === "section") {
    const mark = hasSetting(settings, path) ? "" : "#";
    lines.push(`${indent}${mark}${entry.key}:`);
    for (const child of entry.entries) {
      lines.push(...entryLines(child, [...parents, entry.key], settings));
    }
    return lines;
  }
  const given = Object.hasOwn(settings, path);
  const value = formatYamlValue(given ? settings[path] : entry.defaultValue);
  lines.push(`${indent}${given ? "" : "#"}${entry.key}: ${value}`);
  return lines;
}

/**
 * The text of a new `.claude/loop/config.yaml`: a `yaml-language-server` line pointing at the
 * config's JSON Schema, a short how-to, then every key of the schema with its description,
 * commented out at its default (`#min_completion_indicators: 2`, no space after the `#`;
 * descriptions have one). Deleting the `#` of every key line gives the default config; deleting
 * a few gives those settings. Generated from the schema, so it never misses or invents a key.
 *
 * @param options - the schema reference, and settings to write uncommented.
 * @returns the YAML text, ending with a newline.
 *
 * @example
 * ```ts
 * configTemplate({ schemaReference: "./config.schema.json" });
 * // # yaml-language-server: $schema=./config.schema.json
 * // …
 * // # Version of the config format. Only 1 is valid.
 * // #version: 1
 * ```
 */
export function configTemplate(options: ConfigTemplateOptions): string {
  const settings = options.settings ?? {};
  const blocks = configEntries().map((entry) => entryLines(entry, [], settings).join("\n"));
  return `${[header(options.schemaReference).join("\n"), ...blocks].join("\n\n")}\n`;
}

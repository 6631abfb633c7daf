import { configJsonSchema } from "@loop/core";

/** One key of the config, as its JSON Schema describes it. */
export type ConfigEntry = ConfigSettingEntry | ConfigSectionEntry;

/** A setting: a key with a value. */
export interface ConfigSettingEntry {
  readonly kind: "setting";
  /** The key, such as `min_completion_indicators`. */
  readonly key: string;
  /** What the setting means. */
  readonly description: string;
  /** The value used when the key is absent. */
  readonly defaultValue: unknown;
}

/** A section: a key whose value is a mapping of further keys. */
export interface ConfigSectionEntry {
  readonly kind: "section";
  /** The key, such as `exit_policy`. */
  readonly key: string;
  /** What the section is for. */
  readonly description: string;
  /** Its keys, in schema order. */
  readonly entries: readonly ConfigEntry[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readEntries(properties: Record<string, unknown>): ConfigEntry[] {
  return Object.entries(properties).map(([key, node]): ConfigEntry => {
    const schema = isRecord(node) ? node : {};
    const description = typeof schema.description === "string" ? schema.description : "";
    if (schema.type === "object" && isRecord(schema.properties)) {
      return { kind: "section", key, description, entries: readEntries(schema.properties) };
    }
    return { kind: "setting", key, description, defaultValue: schema.default ?? null };
  });
}

/**
 * Every key of `.claude/loop/config.yaml` with its description and default, read from
 * `configJsonSchema()` (itself generated from the zod schema), so it always lists exactly the
 * keys the loop accepts, in the schema's order.
 *
 * @returns the top-level keys; sections hold their own keys.
 */
export function configEntries(): ConfigEntry[] {
  const schema = configJsonSchema();
  return isRecord(schema.properties) ? readEntries(schema.properties) : [];
}

import * as z from "zod";
import { LoopConfigSchema } from "./config-schema.js";

/**
 * The `$id` of the config's JSON Schema: its name, not a download address. Editors find the
 * schema through the file `loop init` writes beside the config (`$schema=./config.schema.json`).
 */
export const CONFIG_SCHEMA_ID = "https://unpkg.com/@loop/core/config.schema.json";

/**
 * The JSON Schema (draft 2020-12) of `.claude/loop/config.yaml`, generated from
 * {@link LoopConfigSchema}: every key documented and optional with its `default`, unknown
 * keys rejected (`additionalProperties: false`). Editors use it for completion and
 * validation; `@loop/core` ships it as `@loop/core/config.schema.json`.
 *
 * @returns a new JSON-compatible object on each call.
 *
 * @example
 * ```yaml
 * # yaml-language-server: $schema=./config.schema.json
 * version: 1
 * ```
 */
export function configJsonSchema(): Record<string, unknown> {
  const { $schema, description, ...rest } = z.toJSONSchema(LoopConfigSchema, {
    io: "input",
    target: "draft-2020-12",
  });
  return {
    $schema,
    $id: CONFIG_SCHEMA_ID,
    title: "loop config (.claude/loop/config.yaml)",
    description,
    ...rest,
  };
}

/**
 * The text of `packages/core/config.schema.json`: {@link configJsonSchema} as pretty JSON,
 * two-space indented, with a trailing newline.
 */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}

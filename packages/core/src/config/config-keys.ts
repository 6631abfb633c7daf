import * as z from "zod";
import { LoopConfigSchema } from "./config-schema.js";

/** A key path inside the config, such as `["exit_policy", "min_completion_indicators"]`. */
export type ConfigKeyPath = readonly string[];

/** Strips the wrappers (default, prefault, nullable, optional) around a schema. */
function unwrapSchema(schema: z.core.$ZodType): z.core.$ZodType {
  if (
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodOptional
  ) {
    return unwrapSchema(schema.unwrap());
  }
  return schema;
}

/** The keys of the mapping `schema` describes, or `undefined` when it is no mapping. */
function mappingKeys(schema: z.core.$ZodType): readonly string[] | undefined {
  const inner = unwrapSchema(schema);
  return inner instanceof z.ZodObject ? Object.keys(inner.shape) : undefined;
}

/** The schema of the value at `path`, or `undefined` when no such key exists. */
function schemaAt(path: ConfigKeyPath): z.core.$ZodType | undefined {
  let schema: z.core.$ZodType = LoopConfigSchema;
  for (const key of path) {
    const inner = unwrapSchema(schema);
    if (!(inner instanceof z.ZodObject)) return undefined;
    const child: z.core.$ZodType | undefined = (inner.shape as Record<string, z.core.$ZodType>)[
      key
    ];
    if (child === undefined) return undefined;
    schema = child;
  }
  return schema;
}

/**
 * The valid keys of the mapping at `path` (`[]` for the top level), or an empty list when
 * `path` is not a mapping of the schema.
 */
export function configKeysAt(path: ConfigKeyPath): readonly string[] {
  const schema = schemaAt(path);
  return schema === undefined ? [] : (mappingKeys(schema) ?? []);
}

/** Every key path of the schema, sections and settings, parents before children. */
export function configKeyPaths(): readonly ConfigKeyPath[] {
  const paths: ConfigKeyPath[] = [];
  const visit = (parent: ConfigKeyPath) => {
    for (const key of configKeysAt(parent)) {
      const path = [...parent, key];
      paths.push(path);
      visit(path);
    }
  };
  visit([]);
  return paths;
}

/** The key paths of the settings (the leaves: every key whose value is not a section). */
export function configSettingPaths(): readonly ConfigKeyPath[] {
  return configKeyPaths().filter((path) => {
    const schema = schemaAt(path);
    return schema !== undefined && mappingKeys(schema) === undefined;
  });
}

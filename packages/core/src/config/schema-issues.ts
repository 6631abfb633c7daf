import type { z } from "zod";
import { unknownKeyMessage } from "./suggest-key.js";

/**
 * A schema problem before it is placed in a document: its key path, its message, and
 * whether it is about a key (an unknown key: point at the key) or a value (point at the value).
 */
export interface SchemaProblem {
  /** Key path of the offending key or value; for an unknown key, ends with that key. */
  readonly path: readonly (string | number)[];
  /** What is wrong and what would be valid. */
  readonly message: string;
  /** What to point at in the document. */
  readonly target: "key" | "value";
}

/** Converts a zod path (which may hold symbols) to config key segments. */
function keyPath(path: readonly PropertyKey[]): (string | number)[] {
  return path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment));
}

/** The config key segments of a path, for looking up valid keys (list indexes dropped). */
function mappingPath(path: readonly (string | number)[]): string[] {
  return path.filter((segment): segment is string => typeof segment === "string");
}

/**
 * Converts zod's issues for the config schema into {@link SchemaProblem}s: one per unknown
 * key (with the nearest valid key suggested), one per invalid value (the schema's own
 * message, which names what would be valid).
 *
 * @param issues - `error.issues` of a failed `LoopConfigSchema.safeParse`.
 */
export function schemaProblems(issues: readonly z.core.$ZodIssue[]): SchemaProblem[] {
  return issues.flatMap((issue): SchemaProblem[] => {
    const path = keyPath(issue.path);
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        path: [...path, key],
        message: unknownKeyMessage(key, mappingPath(path)),
        target: "key",
      }));
    }
    return [{ path, message: issue.message, target: "value" }];
  });
}

import { findNodeAtLocation, type Node } from "jsonc-parser";
import { issueAtValue } from "./json-location.js";
import type { JsonPath, LocatedIssue } from "./located-issue.js";

/** The parts of a zod issue this module reads. */
export interface SchemaIssue {
  /** Path of the offending value, relative to the value checked. */
  readonly path: readonly PropertyKey[];
  /** The message set in the schema. */
  readonly message: string;
}

/**
 * Locates schema issues in the document: each issue's path is prefixed with `prefix`
 * (where the checked value sits) and points at its value's characters. A trailing list
 * index that the document does not have (a single value read as a one-item list) is
 * dropped from the path.
 */
export function locateSchemaIssues(
  root: Node,
  prefix: JsonPath,
  issues: readonly SchemaIssue[],
): LocatedIssue[] {
  return issues.map((issue) => {
    const path = [
      ...prefix,
      ...issue.path.map((key) => (typeof key === "symbol" ? String(key) : key)),
    ];
    while (typeof path.at(-1) === "number" && findNodeAtLocation(root, path) === undefined)
      path.pop();
    return issueAtValue(root, path, issue.message);
  });
}

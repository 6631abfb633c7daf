import type { Node } from "jsonc-parser";
import { lineColumnAt } from "../../errors/line-column.js";
import type { JsonPath, LocatedIssue } from "./located-issue.js";

/**
 * Issues for the keys that an object node repeats. `JSON.parse` keeps the last of them
 * and editors may show the first, so a repeated key's meaning is ambiguous.
 */
export function duplicateKeyIssues(text: string, node: Node, path: JsonPath): LocatedIssue[] {
  if (node.type !== "object") return [];
  const first = new Map<string, Node>();
  const issues: LocatedIssue[] = [];
  for (const property of node.children ?? []) {
    const key = property.children?.[0];
    if (key === undefined || typeof key.value !== "string") continue;
    const earlier = first.get(key.value);
    if (earlier === undefined) {
      first.set(key.value, key);
      continue;
    }
    const { line, column } = lineColumnAt(text, earlier.offset);
    issues.push({
      message: `duplicate key \`${key.value}\` (first at ${line}:${column}): keep one`,
      path: [...path, key.value],
      offset: key.offset,
    });
  }
  return issues;
}

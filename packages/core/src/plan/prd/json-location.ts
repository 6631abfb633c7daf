import { findNodeAtLocation, type Node } from "jsonc-parser";
import type { JsonPath, LocatedIssue } from "./located-issue.js";

/**
 * The node at `path` or, when `path` does not exist in the document (a missing
 * property), its nearest existing ancestor.
 */
export function nearestNode(root: Node, path: JsonPath): Node {
  for (let length = path.length; length > 0; length -= 1) {
    const node = findNodeAtLocation(root, path.slice(0, length));
    if (node !== undefined) return node;
  }
  return root;
}

/** The key node of the property at `path`, or `undefined` when there is no such property. */
export function propertyKeyNode(root: Node, path: JsonPath): Node | undefined {
  const value = path.length === 0 ? undefined : findNodeAtLocation(root, [...path]);
  const property = value?.parent;
  return property?.type === "property" ? property.children?.[0] : undefined;
}

/** An issue located at the value at `path` (or its nearest existing ancestor). */
export function issueAtValue(root: Node, path: JsonPath, message: string): LocatedIssue {
  return { message, path, offset: nearestNode(root, path).offset };
}

/** An issue located at the key of the property at `path` (or the nearest existing value). */
export function issueAtKey(root: Node, path: JsonPath, message: string): LocatedIssue {
  const key = propertyKeyNode(root, path);
  return key === undefined
    ? issueAtValue(root, path, message)
    : { message, path, offset: key.offset };
}

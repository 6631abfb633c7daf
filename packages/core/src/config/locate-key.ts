import { type Document, isAlias, isMap, isScalar, isSeq } from "yaml";

/** The start offset of a YAML node, when it has a range. */
function startOf(node: unknown): number | undefined {
  if (typeof node !== "object" || node === null || !("range" in node)) return undefined;
  const range: unknown = node.range;
  return Array.isArray(range) && typeof range[0] === "number" ? range[0] : undefined;
}

/**
 * Whether a node is empty in the source: the value of `key:` with nothing after it, or the
 * contents of a document that holds only a `---` marker and comments.
 */
export function isEmptyNode(node: unknown): boolean {
  return (
    isScalar(node) &&
    node.range !== undefined &&
    node.range !== null &&
    node.range[0] === node.range[1]
  );
}

/**
 * Finds where a key path points in a YAML document: the 0-based offset of the key itself
 * (`target: "key"`, for an unknown key) or of its value (`target: "value"`, for a wrong
 * type or range; the key when the value is empty). When the path leaves the document
 * (a node that is not there), the offset of the deepest node reached.
 *
 * @param document - the parsed YAML document.
 * @param path - key path: strings for mapping keys, numbers for list indexes.
 * @param target - whether to point at the last key or at its value.
 * @returns the 0-based offset, or `undefined` when the document has no nodes.
 */
export function locateKey(
  document: Document,
  path: readonly (string | number)[],
  target: "key" | "value",
): number | undefined {
  let node: unknown = document.contents;
  let offset = startOf(node);
  for (const [index, segment] of path.entries()) {
    const current = isAlias(node) ? node.resolve(document) : node;
    if (isMap(current)) {
      const pair = current.items.find(
        (item) => isScalar(item.key) && String(item.key.value) === String(segment),
      );
      if (pair === undefined) return offset;
      const keyOffset = startOf(pair.key) ?? offset;
      if (index === path.length - 1 && target === "key") return keyOffset;
      node = pair.value;
      offset = isEmptyNode(node) ? keyOffset : (startOf(node) ?? keyOffset);
    } else if (isSeq(current) && typeof segment === "number") {
      node = current.items[segment];
      const itemOffset = startOf(node);
      if (itemOffset === undefined) return offset;
      offset = itemOffset;
    } else {
      return offset;
    }
  }
  return offset;
}

import { type Node, parseTree } from "jsonc-parser";
import { countKeysParsed, countKeysWritten } from "./json-key-count.js";
import { maximumJsonNesting } from "./json-nesting.js";
import { type JsonDocument, strictJsonOptions } from "./parse-json-document.js";

const byteOrderMark = "\uFEFF";

/**
 * The document of a prd.json that needs no locating parser: `JSON.parse` reads it, it nests
 * no deeper than {@link maximumJsonNesting} levels and repeats no key. Its syntax tree, which
 * only an issue's location needs, is parsed when first read. `null` when the text is not such
 * a document: `parseJsonDocument` then finds what is wrong, and where.
 *
 * @param text - the prd.json text.
 */
export function quickJsonDocument(text: string): JsonDocument | null {
  // The same source `parseJsonDocument` reads: a space in place of a byte order mark.
  const source = text.startsWith(byteOrderMark) ? ` ${text.slice(1)}` : text;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return null;
  }
  // Too deep, or a key written twice: the locating parser says where.
  if (countKeysParsed(value, maximumJsonNesting) !== countKeysWritten(source)) return null;
  let root: Node | undefined;
  return {
    text,
    value,
    get root(): Node {
      root ??= parseTree(source, [], strictJsonOptions);
      if (root === undefined) throw new Error("jsonc-parser read no value from valid JSON");
      return root;
    },
  };
}

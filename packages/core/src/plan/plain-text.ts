import type { Nodes } from "mdast";
import { lazyPlainText } from "./lazy-paragraph.js";

/**
 * The plain text of a markdown node: text and inline code kept, emphasis, link and code
 * markers dropped, image alt text kept, inline HTML dropped, line breaks read as spaces;
 * whitespace runs collapsed to one space and the result trimmed.
 *
 * @param node - an mdast node (a paragraph, a heading).
 * @returns its text as a reader sees it.
 */
export function plainText(node: Nodes): string {
  return lazyPlainText(node) ?? collapseWhitespace(collectText(node));
}

/**
 * A text with every run of whitespace made one space, trimmed.
 *
 * @param text - the text.
 * @returns the collapsed text (the same string when nothing changes).
 */
export function collapseWhitespace(text: string): string {
  const last = text.length - 1;
  for (let index = 0; index <= last; index += 1) {
    const code = text.charCodeAt(index);
    if (code > 32 && code < 127) continue;
    if (code !== 32 || index === 0 || index === last || text.charCodeAt(index + 1) === 32) {
      return text.replace(/\s+/gu, " ").trim();
    }
  }
  return text;
}

function collectText(node: Nodes): string {
  switch (node.type) {
    case "text":
    case "inlineCode":
      return node.value;
    case "break":
      return " ";
    case "image":
      return node.alt ?? "";
    case "html":
      return "";
    default:
      if ("children" in node) {
        let text = "";
        for (const child of node.children) text += collectText(child);
        return text;
      }
      return "";
  }
}

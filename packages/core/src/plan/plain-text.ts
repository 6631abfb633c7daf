import type { Nodes } from "mdast";

/**
 * The plain text of a markdown node: text and inline code kept, emphasis, link and code
 * markers dropped, image alt text kept, inline HTML dropped, line breaks read as spaces;
 * whitespace runs collapsed to one space and the result trimmed.
 *
 * @param node - an mdast node (a paragraph, a heading).
 * @returns its text as a reader sees it.
 */
export function plainText(node: Nodes): string {
  return collectText(node).replace(/\s+/gu, " ").trim();
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

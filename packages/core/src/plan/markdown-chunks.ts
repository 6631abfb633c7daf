/** Where a chunk of a markdown text starts. */
export interface ChunkStart {
  /** 0-based offset of the chunk's first character (a line start). */
  readonly offset: number;
  /** 1-based line of that character. */
  readonly line: number;
}

const atxHeading = /^#{1,6}(?:[ \t]|$)/u;
const fenceOpener = /^( {0,3})(`{3,}|~{3,})(.*)$/u;
const fenceCloser = /^ {0,3}(`{3,}|~{3,})[ \t]*$/u;
const htmlStart = /^ {0,3}</u;

/**
 * Finds the lines where a markdown text can be cut into chunks that parse, one by one,
 * into exactly the blocks the whole text parses into: the lines that start with an ATX
 * heading in column 1 (`# …` to `###### …`), outside a fenced code block.
 *
 * Such a line is always a top-level heading: it cannot continue a container (a list item
 * or block quote needs indentation or `>`, and a heading is never a lazy line), it
 * interrupts a paragraph, and only a top-level fenced code block or HTML block could
 * contain it. Fences opened in column 1 are followed exactly (they close on a matching
 * fence). The search stops, conservatively, at the first line that might open an HTML
 * block (`<` after up to 3 spaces) or a fence indented by 1 to 3 spaces (which may belong
 * to a list item): no chunk starts after it.
 *
 * This exists because micromark moves every event seen so far each time a container
 * closes, which makes one parse of a plan with thousands of sections quadratic; parsing
 * chunks keeps it linear in the number of sections. Link reference definitions apply to
 * the whole document, so callers must parse the whole text when a chunk holds one.
 *
 * @param body - the markdown text, without byte order mark.
 * @returns the starts of the second and later chunks, in order (empty: do not split).
 */
export function chunkStarts(body: string): ChunkStart[] {
  const starts: ChunkStart[] = [];
  let fence: { readonly marker: string; readonly length: number } | null = null;
  let line = 1;
  let lineStart = 0;
  while (lineStart < body.length) {
    let lineEnd = lineStart;
    while (lineEnd < body.length && !isLineEnding(body.charCodeAt(lineEnd))) lineEnd += 1;
    const text = body.slice(lineStart, lineEnd);

    if (fence !== null) {
      const closer = fenceCloser.exec(text)?.[1];
      if (closer?.[0] === fence.marker && closer.length >= fence.length) fence = null;
    } else if (atxHeading.test(text)) {
      if (lineStart > 0) starts.push({ offset: lineStart, line });
    } else if (htmlStart.test(text)) {
      return starts;
    } else {
      const opener = fenceOpener.exec(text);
      const indent = opener?.[1];
      const marker = opener?.[2];
      const info = opener?.[3] ?? "";
      if (marker !== undefined && !(marker.startsWith("`") && info.includes("`"))) {
        if (indent !== "") return starts;
        fence = { marker: marker.charAt(0), length: marker.length };
      }
    }

    const crlf = body.charCodeAt(lineEnd) === 13 && body.charCodeAt(lineEnd + 1) === 10;
    lineStart = lineEnd + (crlf ? 2 : 1);
    line += 1;
  }
  return starts;
}

function isLineEnding(code: number): boolean {
  return code === 10 || code === 13;
}

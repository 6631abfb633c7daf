/** Replaces every character but line breaks with a space, keeping positions. */
function blank(text: string): string {
  return text.replace(/[^\r\n]/g, " ");
}

const fenceOpening = /^ {0,3}(`{3,}|~{3,})/;

/** Whether `line` closes a fence opened with `fence` (same character, at least as long). */
function closesFence(line: string, fence: string): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
  return match?.[1] !== undefined && match[1][0] === fence[0] && match[1].length >= fence.length;
}

/** Blanks inline code spans: a run of backticks up to the next run of the same length. */
function maskInlineCode(line: string): string {
  return line.replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, blank);
}

/**
 * Blanks what the user quoted or pasted rather than wrote, keeping every other character at
 * its position: fenced code blocks (```` ``` ```` or `~~~`, an unclosed fence runs to the end),
 * indented code lines (4 spaces or a tab), block-quote lines (`>`) and inline code spans. A
 * pasted log that fails is not the user saying something is broken.
 *
 * @param text - a user message.
 * @returns the message with those parts replaced by spaces (line breaks kept).
 */
export function maskQuotedText(text: string): string {
  const lines = text.split(/(?<=\n)/);
  let fence: string | null = null;
  return lines
    .map((line) => {
      if (fence !== null) {
        if (closesFence(line.replace(/\r?\n$/, ""), fence)) fence = null;
        return blank(line);
      }
      const opening = fenceOpening.exec(line);
      if (opening?.[1] !== undefined) {
        fence = opening[1];
        return blank(line);
      }
      if (/^(?: {4}|\t)/.test(line) || /^ {0,3}>/.test(line)) return blank(line);
      return maskInlineCode(line);
    })
    .join("");
}

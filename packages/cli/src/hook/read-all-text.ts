/**
 * Reads a stream to its end as UTF-8 text: the Stop hook's JSON on standard input.
 *
 * @param stream - the stream (`io.stdin`).
 * @returns everything it gave, decoded.
 */
export async function readAllText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

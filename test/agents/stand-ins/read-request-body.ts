import type { IncomingMessage } from "node:http";

/**
 * Reads a request's body as UTF-8 text, at most `maxBytes` of it: a longer body rejects with
 * `request body over <maxBytes> bytes` and drops the connection (the client gets no answer).
 *
 * @param request - the request a stand-in's server got.
 * @param maxBytes - the longest body read (far above what a CLI sends).
 */
export function readRequestBody(request: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new Error(`request body over ${maxBytes} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

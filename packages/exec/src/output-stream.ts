import { StringDecoder } from "node:string_decoder";

/** Which output stream of the child a line came from. */
export type OutputStreamName = "stdout" | "stderr";

/** One complete line of the child's output, without its line ending. */
export interface OutputLine {
  /** The stream the line came from. */
  readonly stream: OutputStreamName;
  /** The line's text, without `\n` or `\r\n`. */
  readonly text: string;
}

/**
 * The end of `text` that fits in `maxBytes` bytes of UTF-8, cut at a character boundary (never
 * half a character, never half a surrogate pair).
 */
export function utf8Tail(text: string, maxBytes: number): string {
  // Each UTF-16 code unit takes 1 to 3 bytes: skip the encoding when the text surely fits.
  if (text.length * 3 <= maxBytes) return text;
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let start = bytes.length - maxBytes;
  // Step past continuation bytes (10xxxxxx) to the first byte of a character.
  while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
  return bytes.subarray(start).toString("utf8");
}

/**
 * Decodes one output stream of a child as UTF-8 (a multi-byte character split across chunks is
 * kept whole), hands complete lines to a callback, and keeps a bounded tail of the text.
 */
export class OutputStream {
  readonly #decoder = new StringDecoder("utf8");
  readonly #stream: OutputStreamName;
  readonly #tailBytes: number;
  readonly #onLine: ((line: OutputLine) => void) | undefined;
  #tail = "";
  #partialLine = "";
  #bytesWritten = 0;

  /**
   * @param stream - which stream this is, for the lines.
   * @param tailBytes - how much text to keep, at most, in bytes of UTF-8.
   * @param onLine - called with every complete line; errors it throws are ignored.
   */
  constructor(
    stream: OutputStreamName,
    tailBytes: number,
    onLine: ((line: OutputLine) => void) | undefined,
  ) {
    this.#stream = stream;
    this.#tailBytes = tailBytes;
    this.#onLine = onLine;
  }

  /** Feeds one chunk of raw bytes. */
  write(chunk: Buffer): void {
    this.#bytesWritten += chunk.length;
    this.#append(this.#decoder.write(chunk));
  }

  /** Flushes the decoder and the last unterminated line. Call once, at the end. */
  end(): void {
    this.#append(this.#decoder.end());
    if (this.#partialLine !== "") this.#emit(this.#partialLine);
    this.#partialLine = "";
  }

  /** The kept tail of the decoded text. */
  get text(): string {
    return this.#tail;
  }

  /** How many bytes of the start of the stream are not in {@link OutputStream.text}: 0 when it is whole. */
  get droppedBytes(): number {
    return Math.max(0, this.#bytesWritten - Buffer.byteLength(this.#tail, "utf8"));
  }

  #append(text: string): void {
    if (text === "") return;
    this.#tail = utf8Tail(this.#tail + text, this.#tailBytes);
    if (this.#onLine === undefined) return;
    const pieces = (this.#partialLine + text).split("\n");
    this.#partialLine = pieces.pop() ?? "";
    // Keep an unterminated line bounded too: a child that never prints "\n" must not grow it.
    this.#partialLine = utf8Tail(this.#partialLine, this.#tailBytes);
    for (const piece of pieces) this.#emit(piece.endsWith("\r") ? piece.slice(0, -1) : piece);
  }

  #emit(text: string): void {
    try {
      this.#onLine?.({ stream: this.#stream, text });
    } catch {
      // A failing observer never breaks the run.
    }
  }
}

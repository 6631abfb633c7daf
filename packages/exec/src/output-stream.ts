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
 * Decodes one output stream of a child as UTF-8 (a multi-byte character split across chunks is
 * kept whole), hands complete lines to a callback, and keeps a bounded tail of the text.
 */
export class OutputStream {
  readonly #decoder = new StringDecoder("utf8");
  readonly #stream: OutputStreamName;
  readonly #tailCharacters: number;
  readonly #onLine: ((line: OutputLine) => void) | undefined;
  #tail = "";
  #partialLine = "";

  /**
   * @param stream - which stream this is, for the lines.
   * @param tailBytes - how much text to keep, at most (counted in UTF-16 code units, a close bound).
   * @param onLine - called with every complete line; errors it throws are ignored.
   */
  constructor(
    stream: OutputStreamName,
    tailBytes: number,
    onLine: ((line: OutputLine) => void) | undefined,
  ) {
    this.#stream = stream;
    this.#tailCharacters = tailBytes;
    this.#onLine = onLine;
  }

  /** Feeds one chunk of raw bytes. */
  write(chunk: Buffer): void {
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

  #append(text: string): void {
    if (text === "") return;
    this.#tail += text;
    if (this.#tail.length > this.#tailCharacters) {
      this.#tail = this.#tail.slice(this.#tail.length - this.#tailCharacters);
    }
    if (this.#onLine === undefined) return;
    const pieces = (this.#partialLine + text).split("\n");
    this.#partialLine = pieces.pop() ?? "";
    // Keep an unterminated line bounded too: a child that never prints "\n" must not grow it.
    if (this.#partialLine.length > this.#tailCharacters) {
      this.#partialLine = this.#partialLine.slice(-this.#tailCharacters);
    }
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

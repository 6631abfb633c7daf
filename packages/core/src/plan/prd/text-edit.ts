/** A replacement of `length` characters at `offset` by `content`. */
export interface TextEdit {
  /** 0-based offset of the first replaced character. */
  readonly offset: number;
  /** How many characters are replaced; `0` for an insertion. */
  readonly length: number;
  /** The new characters. */
  readonly content: string;
}

/** Applies non-overlapping edits, all given against `text`; every other character survives. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const pieces: string[] = [];
  let position = 0;
  for (const edit of [...edits].sort((left, right) => left.offset - right.offset)) {
    pieces.push(text.slice(position, edit.offset), edit.content);
    position = edit.offset + edit.length;
  }
  pieces.push(text.slice(position));
  return pieces.join("");
}

/** The edit that replaces the characters of `node` (a JSON value) by `content`. */
export function replaceValue(
  node: { readonly offset: number; readonly length: number },
  content: string,
): TextEdit {
  return { offset: node.offset, length: node.length, content };
}

/** Where a byte sequence stops being valid UTF-8. */
export interface InvalidUtf8Position {
  /** Offset of the first byte that is not valid UTF-8. */
  readonly offset: number;
  /** Its 1-based line. */
  readonly line: number;
  /** Its 1-based column, in characters. */
  readonly column: number;
}

/** The length of the UTF-8 sequence a lead byte starts, or 0 when it cannot start one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** The range the second byte of a sequence must be in (no overlong forms, no surrogates). */
function secondByteRange(lead: number): readonly [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/** Whether the sequence of `length` bytes at `offset` is a valid UTF-8 character. */
function isValidSequence(bytes: Uint8Array, offset: number, length: number): boolean {
  if (length === 0 || offset + length > bytes.length) return false;
  const lead = bytes[offset] ?? 0;
  const [low, high] = secondByteRange(lead);
  for (let index = 1; index < length; index += 1) {
    const byte = bytes[offset + index] ?? 0;
    const [minimum, maximum] = index === 1 ? [low, high] : [0x80, 0xbf];
    if (byte < minimum || byte > maximum) return false;
  }
  return true;
}

/**
 * Finds the first byte of `bytes` that is not valid UTF-8, with its line and column, so that
 * an error can point at it (`plan.md:12:5`).
 *
 * @param bytes - the file's content.
 * @returns the position, or `null` when all of `bytes` is valid UTF-8.
 */
export function findInvalidUtf8(bytes: Uint8Array): InvalidUtf8Position | null {
  let line = 1;
  let column = 1;
  let offset = 0;
  while (offset < bytes.length) {
    const lead = bytes[offset] ?? 0;
    const length = sequenceLength(lead);
    if (!isValidSequence(bytes, offset, length)) return { offset, line, column };
    if (lead === 0x0a) {
      line += 1;
      column = 1;
    } else {
      column += 1;
    }
    offset += length;
  }
  return null;
}

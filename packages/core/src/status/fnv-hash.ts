const OFFSET_BASIS = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;

/**
 * The 64-bit FNV-1a hash of a text, as 16 lower-case hex digits. Each UTF-16 code unit is
 * hashed as two bytes, low byte first. Stable across runs, machines and versions; not a
 * cryptographic hash.
 *
 * @param text - any text.
 * @returns 16 hex digits.
 */
export function fnv1aHash(text: string): string {
  let hash = OFFSET_BASIS;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    hash = BigInt.asUintN(64, (hash ^ BigInt(code & 0xff)) * PRIME);
    hash = BigInt.asUintN(64, (hash ^ BigInt(code >>> 8)) * PRIME);
  }
  return hash.toString(16).padStart(16, "0");
}

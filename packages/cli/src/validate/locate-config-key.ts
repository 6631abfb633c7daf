/** A 1-based line and column of a key in a config file. */
export interface KeyPosition {
  readonly line: number;
  readonly column: number;
}

/** The indentation and key of a `key:` line in block style, or `null` for any other line. */
function readKeyLine(text: string): { indent: number; key: string } | null {
  const match = /^( *)([A-Za-z_][\w-]*)\s*:(?:\s|$)/.exec(text);
  if (match?.[1] === undefined || match[2] === undefined) return null;
  return { indent: match[1].length, key: match[2] };
}

/**
 * Where a key path is written in a block-style YAML config (the style `loop init` writes):
 * the line and column of its last key. Comment lines, and keys commented out, never match.
 * Flow style (`exit_policy: { … }`) is not searched; the answer is then `null` and the caller
 * reports the file without a position.
 *
 * @param text - the config's YAML text.
 * @param path - the key path, such as `["circuit_breaker", "no_progress_loops"]`.
 * @returns the position of the last key, or `null` when the file does not write it.
 */
export function locateConfigKey(text: string, path: readonly string[]): KeyPosition | null {
  const lines = text.split(/\r?\n/);
  let depth = 0;
  let parentIndent = -1;
  let childIndent: number | null = 0;
  for (let index = 0; index < lines.length && depth < path.length; index += 1) {
    const line = readKeyLine(lines[index] ?? "");
    if (line === null) continue;
    if (line.indent <= parentIndent) return null;
    childIndent ??= line.indent;
    if (line.indent !== childIndent || line.key !== path[depth]) continue;
    if (depth === path.length - 1) return { line: index + 1, column: line.indent + 1 };
    depth += 1;
    parentIndent = line.indent;
    childIndent = null;
  }
  return null;
}

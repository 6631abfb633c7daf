/**
 * The last `count` lines of a stream's text that say something: blank lines and lines matching
 * one of `noise` left out, trailing white space trimmed. For the cause of a failed run.
 *
 * @param text - the stream's text (stderr, usually).
 * @param noise - lines that never explain a failure (warnings, log lines, banners).
 * @param count - how many lines to keep, the last ones.
 */
export function meaningfulLines(text: string, noise: readonly RegExp[], count: number): string {
  return text
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "" && !noise.some((pattern) => pattern.test(line)))
    .slice(-count)
    .join("\n");
}

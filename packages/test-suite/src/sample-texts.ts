/** A text the suite writes and expects back byte for byte. */
export interface SampleText {
  /** Shown in the test name. */
  readonly name: string;
  /** The text. */
  readonly text: string;
}

/** About one megabyte of JSON-like lines with non-ASCII characters, each line different. */
function largeText(): string {
  const lines: string[] = [];
  for (let line = 0; line < 20_000; line += 1) {
    lines.push(`{"line": ${line}, "text": "größe — ünïcödé ${line.toString(36)}"}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Texts a store must keep unchanged. Lone surrogates are left out: they are not valid
 * Unicode and no UTF-8 backend can store them.
 */
export const sampleTexts: readonly SampleText[] = [
  { name: "a JSON document", text: '{"status":"running","iteration":3,"tasks":["TASK-001"]}' },
  { name: "an empty text", text: "" },
  {
    name: "unicode (accents, CJK, emoji, right-to-left, combining marks)",
    text: "Größe — naïve café, 日本語, 🚀👩🏽‍💻, עברית, e\u0301",
  },
  { name: "CRLF line endings", text: '{\r\n  "status": "running"\r\n}\r\n' },
  { name: "mixed line endings and trailing spaces", text: "a  \n\tb\r\n\rc \n\n" },
  { name: "a byte order mark", text: '\uFEFF{"status":"running"}' },
  { name: "NUL and control characters", text: "a\u0000b\u0007c\u001b[0m" },
  { name: "a large (1 MB) document", text: largeText() },
];

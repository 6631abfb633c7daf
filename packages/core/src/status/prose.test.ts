import { describe, expect, it } from "vitest";
import { extractProse } from "./prose.js";

describe("extractProse", () => {
  it("keeps the text's length and line breaks, so offsets stay true", () => {
    const text = "Intro `code` here.\r\n\r\n```\nconsole.log(1)\n```\n\n> quoted\n\nOutro.";
    const prose = extractProse(text);
    expect(prose.text).toHaveLength(text.length);
    expect(prose.text.split(/\r\n|\n/)).toHaveLength(text.split(/\r\n|\n/).length);
    expect(prose.sentences.map((sentence) => text.slice(sentence.start, sentence.end))).toEqual([
      "Intro `code` here.",
      "Outro.",
    ]);
  });

  it("splits prose into sentences by paragraph, leaving out everything else", () => {
    const text = [
      "# Summary",
      "",
      "I implemented **the parser**. Run `npm test` to check it! Ready?",
      "",
      "> Quoted words.",
      "",
      "```",
      "code words.",
      "```",
      "",
      "$ npm test",
      "Tests: 3 passed",
      "",
      "- First item, e.g. this one.",
      "- Second item",
      "",
      "<tool_result>",
      "Tool words.",
      "</tool_result>",
      "",
      "---RALPH_STATUS---",
      "RECOMMENDATION: Status words.",
      "---END_RALPH_STATUS---",
    ].join("\n");
    expect(extractProse(text).sentences.map(({ text, paragraph }) => [paragraph, text])).toEqual([
      [0, "Summary"],
      [1, "I implemented the parser."],
      [1, "Run to check it!"],
      [1, "Ready?"],
      [3, "First item, e.g. this one."],
      [4, "Second item"],
    ]);
  });

  it("treats each line as a sentence end", () => {
    const sentences = extractProse("Summary:\nAll tasks complete\nTests passing").sentences;
    expect(sentences.map((sentence) => sentence.text)).toEqual([
      "Summary:",
      "All tasks complete",
      "Tests passing",
    ]);
  });

  it("does not let an unclosed tool tag swallow more than its paragraph", () => {
    const sentences = extractProse("<tool_result>\nraw output\n\nMy own words.").sentences;
    expect(sentences.map((sentence) => sentence.text)).toEqual(["My own words."]);
  });

  it("marks the sentences of quoted records, and only those", () => {
    const text = [
      "Recent commits:",
      "",
      "- a1b2c3d Fix the parser",
      "",
      "## [1.2.0] - 2026-01-15",
      "",
      "### Added",
      "",
      "- The tokenizer",
      "",
      "All good.",
      "",
      "- Another entry",
    ].join("\n");
    expect(extractProse(text).sentences.map(({ text, quoted }) => [text, quoted])).toEqual([
      ["Recent commits:", false],
      ["a1b2c3d Fix the parser", true],
      ["[1.2.0] - 2026-01-15", false],
      ["Added", false],
      ["The tokenizer", true],
      ["All good.", false],
      ["Another entry", true],
    ]);
  });

  it("ends a section of records at the next heading of its depth", () => {
    const text = "## Changelog\n\n- Entry\n\n## Next steps\n\n- My own item";
    expect(extractProse(text).sentences.map(({ text, quoted }) => [text, quoted])).toEqual([
      ["Changelog", false],
      ["Entry", true],
      ["Next steps", false],
      ["My own item", false],
    ]);
  });

  it("carries an introduction to records across the chunks the text is parsed in", () => {
    const text = `${"Working on it.\n".repeat(39)}Here is the changelog:\n\n- Entry\n\n## Later\n`;
    const entry = extractProse(text).sentences.find((sentence) => sentence.text === "Entry");
    expect(entry?.quoted).toBe(true);
  });

  it("keeps a long quoted list quoted past a chunk boundary", () => {
    const items = Array.from({ length: 30 }, (_, index) => `- Entry ${index}`).join("\n\n");
    const text = `Here is the changelog:\n\n${items}\n\n- Last entry\n\nMy own words.`;
    const sentences = extractProse(text).sentences;
    expect(sentences.find((sentence) => sentence.text === "Last entry")?.quoted).toBe(true);
    expect(sentences.find((sentence) => sentence.text === "My own words.")?.quoted).toBe(false);
  });

  it("reads a text that starts with a byte order mark", () => {
    const sentences = extractProse("\uFEFFAll good. `x` here.").sentences;
    expect(sentences.map((sentence) => sentence.text)).toEqual(["All good.", "here."]);
    expect(sentences[0]?.start).toBe(1);
  });
});

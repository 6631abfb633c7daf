import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isDocument, parseDocument } from "yaml";
import { isCommentsOnly, parseConfig } from "./parse-config.js";
import { resolveConfig } from "./resolve-config.js";

// parseConfig skips the YAML parser for a file of comments and blank lines (what `loop init`
// writes): only when YAML reads it as a document without content and without errors.

const commentText = fc.string({
  unit: fc.oneof(
    fc.constantFrom("\t", " ", "#", ":", "-", "'", '"', "{", "[", "&", "*", "!", "%", "é", "✅"),
    fc.string({ minLength: 1, maxLength: 1 }),
  ),
  maxLength: 20,
});
const line = fc.oneof(
  fc
    .tuple(fc.nat({ max: 4 }), commentText)
    .map(([spaces, text]) => `${" ".repeat(spaces)}#${text}`),
  fc.nat({ max: 4 }).map((spaces) => " ".repeat(spaces)),
  fc.constantFrom("\t# tab first", "key: value", "---", "%YAML 1.2", "a #b", "\t"),
);
const text = fc
  .tuple(fc.array(line, { maxLength: 6 }), fc.constantFrom("\n", "\r\n"))
  .map(([lines, end]) => lines.join(end));

describe("isCommentsOnly", () => {
  it("holds only for texts YAML reads as no content and no errors", () => {
    fc.assert(
      fc.property(text, (yaml) => {
        if (!isCommentsOnly(yaml)) return;
        const document = parseDocument(yaml, { prettyErrors: false, logLevel: "error" });
        expect(isDocument(document)).toBe(true);
        expect(document.errors).toEqual([]);
        expect(document.contents).toBeNull();
      }),
      { numRuns: 3000 },
    );
  });

  it("reads `loop init`'s commented settings as the defaults", () => {
    const yaml =
      "# yaml-language-server: $schema=./config.schema.json\r\n\n# limits:\n#   max_iterations: 100 # a note\n";
    expect(isCommentsOnly(yaml)).toBe(true);
    expect(parseConfig(yaml)).toEqual(resolveConfig());
    expect(isCommentsOnly("limits: {}\n")).toBe(false);
    expect(isCommentsOnly("\t# a tab first: YAML decides")).toBe(false);
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePrd } from "./parse-prd.js";
import { PrdParseError } from "./prd-parse-error.js";
import { type UpdatePrdEdit, updatePrd } from "./update-prd.js";

const documentation = readFileSync(
  new URL("../../../../../docs/prd-format.md", import.meta.url),
  "utf8",
);

/** The code blocks that follow an HTML comment `<!-- marker… -->`, with the comment's rest. */
function blocksAfter(marker: string): { argument: string; code: string }[] {
  const pattern = new RegExp(
    `<!-- ${marker}(?::? ?(.*?))? -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\`\\n`,
    "g",
  );
  return [...documentation.matchAll(pattern)].map((match) => ({
    argument: match[1] ?? "",
    code: match[2] ?? "",
  }));
}

describe("docs/prd-format.md", () => {
  it("has valid examples that parse", () => {
    const examples = blocksAfter("prd-example");
    expect(examples).toHaveLength(2);
    for (const example of examples)
      expect(parsePrd(example.code).stories.length).toBeGreaterThan(0);
  });

  it("shows the exact error message of its invalid example", () => {
    const [invalid] = blocksAfter("prd-invalid-example");
    const [message] = blocksAfter("prd-invalid-message");
    expect(invalid).toBeDefined();
    expect(message).toBeDefined();
    expect(() => parsePrd(invalid?.code ?? "", { file: "prd.json" })).toThrow(PrdParseError);
    try {
      parsePrd(invalid?.code ?? "", { file: "prd.json" });
    } catch (error) {
      expect((error as Error).message).toBe(message?.code);
    }
  });

  it("shows the exact result of its updatePrd example", () => {
    const [example] = blocksAfter("update-example");
    const [result] = blocksAfter("update-result");
    expect(example).toBeDefined();
    const edit = JSON.parse(example?.argument ?? "") as UpdatePrdEdit;
    expect(updatePrd(example?.code ?? "", edit)).toBe(result?.code);
  });
});

import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

// The README's example is readme-example.test.ts, word for word, so the example runs and
// type-checks with the rest of the tests and cannot drift from the code.
it("shows readme-example.test.ts verbatim in the README", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const example = readFileSync(new URL("./readme-example.test.ts", import.meta.url), "utf8");
  expect(readme).toContain(`\`\`\`ts\n${example}\`\`\`\n`);
});

import { describe, expect, it } from "vitest";
import { createHeadingMatcher, normalizeHeading } from "./heading-match.js";

describe("heading matching", () => {
  it("ignores case, emphasis markers, numbering, a trailing colon and separators", () => {
    expect(normalizeHeading("  2. **Nice-to-Have:** ")).toBe("nice to have");
    expect(normalizeHeading("1.3) Tasks")).toBe("tasks");
    expect(normalizeHeading("RALPH_STATUS")).toBe(normalizeHeading("Ralph Status"));
  });

  it("matches only whole names", () => {
    const isOptional = createHeadingMatcher(["Optional", "Future"]);
    expect(isOptional("FUTURE:")).toBe(true);
    expect(isOptional("Future work")).toBe(false);
    expect(isOptional("Non-optional")).toBe(false);
  });
});

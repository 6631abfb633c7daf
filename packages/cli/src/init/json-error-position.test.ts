import { describe, expect, it } from "vitest";
import { jsonErrorPosition } from "./json-error-position.js";

function positionOf(text: string) {
  try {
    JSON.parse(text);
  } catch (error) {
    return jsonErrorPosition(text, error);
  }
  throw new Error("expected invalid JSON");
}

describe("jsonErrorPosition", () => {
  it("turns Node's offset into a line and column", () => {
    expect(positionOf('{\n  "a": 1,\n}')).toEqual({ line: 3, column: 1 });
    expect(positionOf('{"a" 1}')).toEqual({ line: 1, column: 6 });
  });

  it("finds the character V8 names without a position", () => {
    expect(positionOf('{"a": x}')).toEqual({ line: 1, column: 7 });
    expect(positionOf('{"a": tru}')).toEqual({ line: 1, column: 10 });
    expect(positionOf('{\n  "a": [1,]\n}')).toEqual({ line: 2, column: 11 });
  });

  it("points at the last character when the input ends early", () => {
    expect(positionOf('{\n  "a": [1,')).toEqual({ line: 2, column: 10 });
  });

  it("gives null when the text parses after all", () => {
    expect(jsonErrorPosition("{}", new Error("something else"))).toBeNull();
  });
});

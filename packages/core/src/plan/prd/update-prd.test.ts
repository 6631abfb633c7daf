import { describe, expect, it } from "vitest";
import { LoopError } from "../../errors/loop-error.js";
import { parsePrd } from "./parse-prd.js";
import { PrdParseError } from "./prd-parse-error.js";
import { PrdUpdateError } from "./prd-update-error.js";
import { updatePrd } from "./update-prd.js";

describe("updatePrd: a story without passes", () => {
  it("adds passes after the last property, with the object's newline and indentation", () => {
    const text = '{\n  "stories": [\n    {\n      "id": "A",\n      "title": "a"\n    }\n  ]\n}\n';
    const updated = updatePrd(text, { passes: { A: true } });
    expect(updated).toBe(
      '{\n  "stories": [\n    {\n      "id": "A",\n      "title": "a",\n      "passes": true\n    }\n  ]\n}\n',
    );
    expect(parsePrd(updated).stories[0]?.passes).toBe(true);
  });

  it("keeps tabs and CRLF", () => {
    const text =
      '{\r\n\t"stories": [\r\n\t\t{\r\n\t\t\t"id": "A",\r\n\t\t\t"title": "a"\r\n\t\t}\r\n\t]\r\n}';
    expect(updatePrd(text, { passes: { A: true } })).toBe(
      '{\r\n\t"stories": [\r\n\t\t{\r\n\t\t\t"id": "A",\r\n\t\t\t"title": "a",\r\n\t\t\t"passes": true\r\n\t\t}\r\n\t]\r\n}',
    );
  });

  it("keeps a minified document on one line", () => {
    const text = '{"stories":[{"id":"A","title":"a"},{"id":"B","title":"b"}]}';
    const updated = updatePrd(text, { passes: { B: true } });
    expect(updated).toBe(
      '{"stories":[{"id":"A","title":"a"},{"id":"B","title":"b","passes":true}]}',
    );
    expect(parsePrd(updated).stories.map((story) => story.passes)).toEqual([false, true]);
  });

  it("keeps a one-line story object on one line inside a multi-line document", () => {
    const text =
      '{\n  "stories": [\n    { "id": "A", "title": "a" },\n    { "id": "B", "title": "b" }\n  ]\n}';
    expect(updatePrd(text, { passes: { A: true } })).toBe(
      '{\n  "stories": [\n    { "id": "A", "title": "a", "passes": true },\n    { "id": "B", "title": "b" }\n  ]\n}',
    );
  });

  it("copies the separator and colon style of the object's last properties", () => {
    const text = '{"stories": [\n  { "id" : "A"\n  , "title" : "a"\n  }\n]}';
    expect(updatePrd(text, { passes: { A: true } })).toBe(
      '{"stories": [\n  { "id" : "A"\n  , "title" : "a"\n  , "passes" : true\n  }\n]}',
    );
  });

  it("uses the whitespace before the key of a one-property object", () => {
    const text = '{\n    "stories": [\n        {\n            "title": "only"\n        }\n    ]\n}';
    const updated = updatePrd(text, { passes: { "STORY-1": true } });
    expect(updated).toBe(
      '{\n    "stories": [\n        {\n            "title": "only",\n            "passes": true\n        }\n    ]\n}',
    );
    expect(parsePrd(updated).stories[0]?.passes).toBe(true);
  });

  it("changes nothing to mark a story without passes as not passing", () => {
    const text = '{"stories":[{"id":"A","title":"a"}],"completedStories":0}';
    expect(updatePrd(text, { passes: { A: false } })).toBe(text);
  });
});

describe("updatePrd: completedStories", () => {
  const text = `{
  "stories": [
    { "id": "S1", "title": "a", "passes": true },
    { "id": "S2", "title": "b", "passes": false },
    { "id": "S3", "title": "c" }
  ],
  "completedStories": 1
}
`;

  it("is set to the number of passing stories after the edit", () => {
    const updated = updatePrd(text, { passes: { S2: true, S3: true } });
    expect(updated).toBe(
      text
        .replace('"passes": false', '"passes": true')
        .replace('"title": "c" }', '"title": "c", "passes": true }')
        .replace('"completedStories": 1', '"completedStories": 3'),
    );
    expect(parsePrd(updated).completedStories).toBe(3);
  });

  it("goes down when a story stops passing", () => {
    const updated = updatePrd(text, { passes: { S1: false } });
    expect(parsePrd(updated).completedStories).toBe(0);
    expect(updated).toBe(
      text
        .replace('"passes": true', '"passes": false')
        .replace('"completedStories": 1', '"completedStories": 0'),
    );
  });

  it("corrects a stale count when a story changes", () => {
    const stale = text.replace('"completedStories": 1', '"completedStories": 7');
    expect(parsePrd(updatePrd(stale, { passes: { S2: true } })).completedStories).toBe(2);
  });

  it("is left alone when no story changes, even if stale", () => {
    const stale = text.replace('"completedStories": 1', '"completedStories": 7');
    expect(updatePrd(stale, { passes: { S1: true } })).toBe(stale);
  });

  it("is not added when the document has none, nor changed when it is null", () => {
    const without = '{"stories":[{"id":"A","title":"a","passes":false}]}';
    expect(updatePrd(without, { passes: { A: true } })).toBe(
      '{"stories":[{"id":"A","title":"a","passes":true}]}',
    );
    const nullCount = '{"stories":[{"id":"A","title":"a","passes":false}],"completedStories":null}';
    expect(updatePrd(nullCount, { passes: { A: true } })).toBe(
      '{"stories":[{"id":"A","title":"a","passes":true}],"completedStories":null}',
    );
  });
});

describe("updatePrd: ids", () => {
  it("finds stories by integer, derived and escaped ids", () => {
    const text =
      '{"stories":[{"id":1,"title":"a","passes":false},{"title":"b","passes":false},{"id":"\\u00e9","title":"c","passes":false}]}';
    const updated = updatePrd(text, { passes: { "1": true, "STORY-2": true, é: true } });
    expect(updated).toBe(text.replaceAll('"passes":false', '"passes":true'));
  });

  it("throws PrdUpdateError naming each unknown id with the nearest id, changing nothing", () => {
    const text = '{"userStories":[{"id":"US-001","title":"a"},{"id":"US-002","title":"b"}]}';
    let caught: unknown;
    try {
      updatePrd(
        text,
        { passes: { "US-001": true, "US-02": true, "us-003": false } },
        { file: "prd.json" },
      );
    } catch (error) {
      caught = error;
    }
    expect(PrdUpdateError.isInstance(caught)).toBe(true);
    expect(LoopError.isInstance(caught)).toBe(true);
    expect(PrdParseError.isInstance(caught)).toBe(false);
    if (!PrdUpdateError.isInstance(caught)) return;
    expect(caught.code).toBe("PRD_UPDATE_ERROR");
    expect(caught.name).toBe("PrdUpdateError");
    expect(caught.file).toBe("prd.json");
    expect(caught.unknownIds).toEqual([
      { id: "US-02", suggestion: "US-002" },
      { id: "us-003", suggestion: "US-001" },
    ]);
    expect(caught.message).toBe(
      "Cannot update prd.json: no stories with id `US-02` (did you mean `US-002`?), `us-003` (did you mean `US-001`?)",
    );
  });

  it("throws the PrdParseError of parsePrd for an invalid document", () => {
    const text = '{"stories":[{"id":"A","title":"a","passes":"no"}]}';
    expect(() => updatePrd(text, { passes: { A: true } })).toThrow(PrdParseError);
    try {
      updatePrd(text, { passes: { A: true } }, { file: "prd.json" });
    } catch (error) {
      expect(PrdParseError.isInstance(error) && error.issues[0]?.path).toEqual([
        "stories",
        0,
        "passes",
      ]);
      expect((error as Error).message).toContain("prd.json:1:44 stories[0].passes");
    }
  });

  it("rejects a non-boolean passes value from untyped callers", () => {
    const text = '{"stories":[{"id":"A","title":"a"}]}';
    const edit = { passes: { A: "yes" } } as unknown as { passes: Record<string, boolean> };
    expect(() => updatePrd(text, edit)).toThrow(TypeError);
  });
});

describe("updatePrd: what survives", () => {
  it("keeps unknown fields, key order and whitespace byte for byte", () => {
    const text = `{
  "version": 3,
  "owner": {"name": "Ada", "emails": ["a@example.com"]},
  "userStories": [
    {
      "estimate": "2h",
      "id": "US-001",
      "links": [{ "rel": "spec", "href": "https://example.com/a?b=c&d=\\u00e9" }],
      "title": "a",
      "passes": false,
      "x-custom": null
    }
  ],
  "trailer": [1, 2.50, -0, 1e10]
}`;
    const updated = updatePrd(text, { passes: { "US-001": true } });
    expect(updated).toBe(text.replace('"passes": false', '"passes": true'));
    const prd = parsePrd(updated);
    expect(prd.extra).toEqual({
      version: 3,
      owner: { name: "Ada", emails: ["a@example.com"] },
      trailer: [1, 2.5, -0, 1e10],
    });
    expect(prd.stories[0]?.extra).toEqual({
      estimate: "2h",
      links: [{ rel: "spec", href: "https://example.com/a?b=c&d=é" }],
      "x-custom": null,
    });
  });

  it("accepts null options", () => {
    const text = '{"stories":[{"id":"A","title":"a","passes":false}]}';
    expect(updatePrd(text, { passes: { A: true } }, null)).toBe(text.replace("false", "true"));
  });
});

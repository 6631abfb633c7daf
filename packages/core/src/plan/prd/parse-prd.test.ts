import { describe, expect, it } from "vitest";
import { parsePrd } from "./parse-prd.js";

const ralphLoopPrd = `{
  "project": "todo-api",
  "stories": [
    {
      "id": "S1",
      "title": "Create the Todo model",
      "description": "A Todo has a title and a done flag.",
      "acceptanceCriteria": ["Todo has title", "Todo has done"],
      "dependencies": [],
      "verification": "npm test -- todo-model",
      "passes": true
    },
    {
      "id": "S2",
      "title": "List todos",
      "acceptanceCriteria": ["GET /todos returns every todo"],
      "dependencies": ["S1"],
      "verification": "npm test -- list",
      "passes": false
    }
  ],
  "completedStories": 1
}
`;

const userStoriesPrd = `{
  "project": "MyApp",
  "branchName": "ralph/task-priority",
  "description": "Task priority system",
  "userStories": [
    {
      "id": "US-001",
      "title": "Add priority field to database",
      "description": "As a developer, I need to store task priority.",
      "acceptanceCriteria": ["Add priority column", "Typecheck passes"],
      "priority": 1,
      "passes": false,
      "notes": ""
    }
  ]
}`;

describe("parsePrd", () => {
  it("reads the ralph-loop shape: stories and completedStories", () => {
    const prd = parsePrd(ralphLoopPrd);
    expect(prd.storiesKey).toBe("stories");
    expect(prd.completedStories).toBe(1);
    expect(prd.project).toBe("todo-api");
    expect(prd.branchName).toBeNull();
    expect(prd.stories).toEqual([
      {
        id: "S1",
        derivedId: false,
        title: "Create the Todo model",
        description: "A Todo has a title and a done flag.",
        acceptanceCriteria: ["Todo has title", "Todo has done"],
        priority: null,
        passes: true,
        dependencies: [],
        verification: "npm test -- todo-model",
        notes: null,
        index: 0,
        extra: {},
      },
      {
        id: "S2",
        derivedId: false,
        title: "List todos",
        description: null,
        acceptanceCriteria: ["GET /todos returns every todo"],
        priority: null,
        passes: false,
        dependencies: ["S1"],
        verification: "npm test -- list",
        notes: null,
        index: 1,
        extra: {},
      },
    ]);
  });

  it("reads the common userStories shape with its top-level fields", () => {
    const prd = parsePrd(userStoriesPrd);
    expect(prd.storiesKey).toBe("userStories");
    expect(prd.project).toBe("MyApp");
    expect(prd.branchName).toBe("ralph/task-priority");
    expect(prd.description).toBe("Task priority system");
    expect(prd.completedStories).toBeNull();
    expect(prd.stories[0]).toMatchObject({
      id: "US-001",
      priority: 1,
      passes: false,
      notes: "",
      acceptanceCriteria: ["Add priority column", "Typecheck passes"],
      dependencies: [],
      verification: null,
    });
  });

  it("accepts every documented alias", () => {
    const prd = parsePrd(
      JSON.stringify({
        stories: [
          { id: "A", title: "a", verificationCommand: "make a", acceptance_criteria: ["x"] },
          { id: "B", title: "b", dependsOn: ["A"], verification_command: "make b" },
          { id: "C", title: "c", depends_on: ["A", "B"], verify: "make c" },
          { id: "D", title: "d", dependencies: ["C"], verification: "make d" },
        ],
      }),
    );
    expect(prd.stories.map((story) => story.dependencies)).toEqual([[], ["A"], ["A", "B"], ["C"]]);
    expect(prd.stories.map((story) => story.verification)).toEqual([
      "make a",
      "make b",
      "make c",
      "make d",
    ]);
    expect(prd.stories[0]?.acceptanceCriteria).toEqual(["x"]);
  });

  it("reads a single string as one criterion and a single id as one dependency", () => {
    const prd = parsePrd(
      JSON.stringify({
        stories: [
          { id: "A", title: "a" },
          { id: "B", title: "b", acceptanceCriteria: "It works", dependencies: "A" },
        ],
      }),
    );
    expect(prd.stories[1]?.acceptanceCriteria).toEqual(["It works"]);
    expect(prd.stories[1]?.dependencies).toEqual(["A"]);
  });

  it("turns integer ids and integer dependencies into strings", () => {
    const prd = parsePrd(
      '{"stories":[{"id":1,"title":"a"},{"id":2,"title":"b","dependencies":[1]},{"id":"3","title":"c","dependsOn":2}]}',
    );
    expect(prd.stories.map((story) => story.id)).toEqual(["1", "2", "3"]);
    expect(prd.stories.map((story) => story.dependencies)).toEqual([[], ["1"], ["2"]]);
  });

  it("derives STORY-<1-based position> for stories without an id", () => {
    const prd = parsePrd(
      '{"stories":[{"title":"a"},{"id":"X","title":"b"},{"id":null,"title":"c","dependencies":["STORY-1"]}]}',
    );
    expect(prd.stories.map((story) => [story.id, story.derivedId])).toEqual([
      ["STORY-1", true],
      ["X", false],
      ["STORY-3", true],
    ]);
    expect(prd.stories[2]?.dependencies).toEqual(["STORY-1"]);
  });

  it("reads null optional fields as absent and a missing passes as false", () => {
    const prd = parsePrd(
      '{"stories":[{"id":"A","title":"a","description":null,"priority":null,"dependencies":null,"acceptanceCriteria":null,"verification":null,"notes":null}],"completedStories":null,"project":null}',
    );
    expect(prd.stories[0]).toMatchObject({
      description: null,
      priority: null,
      dependencies: [],
      acceptanceCriteria: [],
      verification: null,
      notes: null,
      passes: false,
    });
    expect(prd.completedStories).toBeNull();
    expect(prd.project).toBeNull();
  });

  it("keeps unknown fields, top-level and per story, as written", () => {
    const prd = parsePrd(
      JSON.stringify({
        version: 2,
        owner: { name: "Ada" },
        stories: [{ id: "A", title: "a", estimate: "2h", tags: ["api"], __proto__x: 1 }],
      }),
    );
    expect(prd.extra).toEqual({ version: 2, owner: { name: "Ada" } });
    expect(prd.stories[0]?.extra).toEqual({ estimate: "2h", tags: ["api"], __proto__x: 1 });
  });

  it("keeps a field named __proto__ as an own field, not as a prototype", () => {
    const prd = parsePrd('{"stories":[{"id":"A","title":"a","__proto__":{"polluted":true}}]}');
    const extra = prd.stories[0]?.extra ?? {};
    expect(Object.keys(extra)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(extra)).toBe(Object.prototype);
    expect((extra as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("reads escapes and unicode in values", () => {
    const prd = parsePrd(
      '{"stories":[{"id":"caf\\u00e9","title":"\\"Quoted\\" \\ud83d\\ude80 \\\\ path"}]}',
    );
    expect(prd.stories[0]?.id).toBe("café");
    expect(prd.stories[0]?.title).toBe('"Quoted" 🚀 \\ path');
  });

  it("ignores a leading byte order mark", () => {
    const prd = parsePrd('\uFEFF{"stories":[{"id":"A","title":"a","passes":true}]}');
    expect(prd.stories[0]?.passes).toBe(true);
  });

  it("accepts an empty story array", () => {
    expect(parsePrd('{"stories": []}').stories).toEqual([]);
  });

  it("accepts null for options", () => {
    expect(parsePrd('{"stories": []}', null).stories).toEqual([]);
  });
});

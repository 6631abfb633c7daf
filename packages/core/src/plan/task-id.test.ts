import { describe, expect, it } from "vitest";
import { assignTaskIds, derivedTaskIdBase, slugifyTaskTitle } from "./derived-task-id.js";
import { readExplicitTaskId } from "./task-id.js";

describe("readExplicitTaskId", () => {
  it.each([
    ["TASK-001 Design schema", "TASK-001", "Design schema"],
    ["TASK-001: Design schema", "TASK-001", "Design schema"],
    ["TASK-001:Design schema", "TASK-001", "Design schema"],
    ["TASK-001 - Design schema", "TASK-001", "Design schema"],
    ["TASK-001 — Design schema", "TASK-001", "Design schema"],
    ["TASK-001 – Design schema", "TASK-001", "Design schema"],
    ["TASK-001. Design schema", "TASK-001", "Design schema"],
    ["BUG-12", "BUG-12", ""],
    ["US_2-15 Story", "US_2-15", "Story"],
  ])("reads %j", (text, id, title) => {
    expect(readExplicitTaskId(text)).toEqual({ id, title });
  });

  it.each([
    "task-1 lowercase",
    "TASK-1a glued",
    "TASK- 1",
    "-TASK-1",
    "Fix TASK-1",
    "TASK-1-2 chained",
    "TASK-1.5",
  ])("finds no id in %j", (text) => {
    expect(readExplicitTaskId(text)).toBeNull();
  });
});

describe("derived ids", () => {
  it("slugify titles after NFKC and lowercasing", () => {
    expect(slugifyTaskTitle("Fix the *login* bug!")).toBe("fix-the-login-bug");
    expect(slugifyTaskTitle("Ｆｕｌｌ　Ｗｉｄｔｈ №5")).toBe("full-width-no5");
    expect(slugifyTaskTitle("  --  ")).toBe("");
  });

  it("cut at 48 code points on a word boundary, or inside a single long word", () => {
    expect(slugifyTaskTitle("a".repeat(60))).toBe("a".repeat(48));
    const slug = slugifyTaskTitle("word ".repeat(20));
    expect(slug).toBe(Array(9).fill("word").join("-"));
    expect(slug.length).toBeLessThanOrEqual(48);
  });

  it("fall back to a hash for titles without letters or numbers", () => {
    expect(derivedTaskIdBase("🎉🎉")).toBe("task-421c4fd5");
    expect(derivedTaskIdBase("")).toBe("task-811c9dc5");
  });

  it("resolve collisions in document order, never taking an explicit id", () => {
    const ids = assignTaskIds([
      { explicitId: null, title: "Deploy" },
      { explicitId: "TASK-1", title: "x" },
      { explicitId: null, title: "deploy!" },
      { explicitId: null, title: "Deploy 2" },
    ]);
    expect(ids).toEqual(["deploy", "TASK-1", "deploy-3", "deploy-2"]);
  });
});

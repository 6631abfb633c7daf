import { describe, expect, it } from "vitest";
import { matchRequirements } from "./match-requirements.js";

const task = (id: string, title: string, done = true) => ({ id, title, done, line: 1 });

describe("matchRequirements", () => {
  const tasks = [
    task("TASK-001", "Design database schema for users table"),
    task("TASK-002", "Hash passwords with bcrypt"),
    task("TASK-003", "Implement password hashing utility"),
    task("TASK-004", "Create login endpoint"),
  ];

  it("gives each requirement its best task, score, verdict and ranked candidates", () => {
    const requirement = { text: "Password hashing uses bcrypt", section: "Acceptance Criteria" };
    const [match] = matchRequirements([requirement], tasks);
    expect(match?.requirement).toBe(requirement);
    expect(match?.score).toBe(1);
    expect(match?.matched).toBe(true);
    expect(match?.met).toBe(true);
    expect(match?.tasks).toEqual([tasks[1]]);
    expect(match?.tasks[0]).toBe(tasks[1]);
    expect(match?.candidates.map(({ task, score }) => [task.id, score])).toEqual([
      ["TASK-002", 1],
      ["TASK-003", 0.666667],
    ]);
  });

  it("ranks equal scores in input order and leaves out tasks scoring 0", () => {
    const [match] = matchRequirements(
      [{ text: "Login endpoint" }],
      [task("B", "Profile page"), task("A", "Login endpoint"), task("C", "Endpoint for login")],
    );
    expect(match?.candidates.map((candidate) => candidate.task.id)).toEqual(["A", "C"]);
  });

  it("applies the threshold", () => {
    const requirements = [{ text: "Password hashing uses bcrypt" }];
    const only = [task("TASK-003", "Implement password hashing utility")];
    expect(matchRequirements(requirements, only)[0]?.matched).toBe(false);
    expect(matchRequirements(requirements, only, { threshold: 0.6 })[0]?.matched).toBe(true);
  });

  it("has no task and score 0 for a requirement no task shares a word with", () => {
    const [match] = matchRequirements([{ text: "Dark mode" }], tasks, { threshold: 0 });
    expect(match).toMatchObject({ score: 0, matched: false, met: false, tasks: [] });
    expect(match?.candidates).toEqual([]);
  });

  it("counts a requirement checked in the plan as met, not matched", () => {
    const requirement = { text: "Dark mode", section: "Success Metrics", line: 9, checked: true };
    expect(matchRequirements([requirement], tasks)[0]).toMatchObject({ matched: false, met: true });
  });

  it("leaves out tasks with done: false", () => {
    const [match] = matchRequirements(
      [{ text: "Password hashing uses bcrypt" }],
      [task("TASK-002", "Hash passwords with bcrypt", false)],
    );
    expect(match?.matched).toBe(false);
    expect(match?.candidates).toEqual([]);
  });

  it("keeps the requirements' order", () => {
    const requirements = [{ text: "B" }, { text: "A" }, { text: "C" }];
    expect(matchRequirements(requirements, []).map((match) => match.requirement)).toEqual(
      requirements,
    );
  });

  it.each([-0.1, 1.5, Number.NaN])("rejects threshold %d", (threshold) => {
    expect(() => matchRequirements([], [], { threshold })).toThrow(RangeError);
  });

  it.each([0, 1.5])("rejects maxCombinedTasks %d", (maxCombinedTasks) => {
    expect(() => matchRequirements([], [], { maxCombinedTasks })).toThrow(RangeError);
  });
});

describe("matchRequirements with several tasks", () => {
  const formatting = task("TASK-010", "Write unit tests for number formatting");
  const localisation = task("TASK-011", "Write unit tests for localisation");
  const requirement = { text: "Unit tests cover formatting and localisation" };

  it("lets two tasks about the same thing meet a requirement together", () => {
    const [match] = matchRequirements([requirement], [formatting, localisation]);
    expect(match).toMatchObject({ score: 1, matched: true, tasks: [formatting, localisation] });
    expect(match?.candidates.map((candidate) => candidate.score)).toEqual([0.75, 0.75]);
  });

  it("does not combine when maxCombinedTasks is 1", () => {
    const [match] = matchRequirements([requirement], [formatting, localisation], {
      maxCombinedTasks: 1,
    });
    expect(match).toMatchObject({ score: 0.75, matched: false, tasks: [formatting] });
  });

  it("combines up to maxCombinedTasks tasks", () => {
    const three = { text: "Unit tests cover formatting, parsing, rounding and localisation" };
    const tasks = [
      formatting,
      localisation,
      task("TASK-012", "Write unit tests for parsing"),
      task("TASK-013", "Write unit tests for rounding"),
    ];
    expect(matchRequirements([three], tasks)[0]?.matched).toBe(false);
    const [match] = matchRequirements([three], tasks, { maxCombinedTasks: 3 });
    expect(match?.matched).toBe(true);
    expect(match?.tasks).toHaveLength(3);
  });

  it("does not combine tasks that share no requirement word (each covers a different half)", () => {
    const [match] = matchRequirements(
      [{ text: "Admin can export user reports" }],
      [task("A", "Add admin user management"), task("B", "Export sales report as CSV")],
    );
    expect(match).toMatchObject({ score: 0.5, matched: false });
    expect(match?.tasks).toHaveLength(1);
  });

  it("does not take a partner that says too little about the requirement alone", () => {
    const [match] = matchRequirements(
      [{ text: "Unit tests cover formatting and localisation" }],
      [formatting, task("B", "Translate the localisation files")],
    );
    expect(match).toMatchObject({ score: 0.75, matched: false, tasks: [formatting] });
  });

  it("uses a single task when it is enough", () => {
    const both = task("TASK-020", "Write unit tests for formatting and localisation");
    const [match] = matchRequirements([requirement], [formatting, both, localisation]);
    expect(match).toMatchObject({ score: 1, matched: true, tasks: [both] });
  });
});

describe("matchRequirements candidates", () => {
  it("are frozen, and one object per task and score across requirements", () => {
    const requirements = [{ text: "Login endpoint" }, { text: "Endpoint for login" }];
    const tasks = [task("A", "Create login endpoint"), task("B", "Profile page endpoint")];
    const [first, second] = matchRequirements(requirements, tasks);
    const [login] = first?.candidates ?? [];
    expect(login).toEqual({ task: tasks[0], score: 1 });
    expect(Object.isFrozen(login)).toBe(true);
    expect(second?.candidates[0]).toBe(login);
    expect(second?.candidates[1]).toEqual({ task: tasks[1], score: 0.5 });
  });
});

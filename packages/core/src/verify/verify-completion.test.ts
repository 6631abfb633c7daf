import { describe, expect, it } from "vitest";
import type { Concern } from "./user-concerns.js";
import { verifyCompletion } from "./verify-completion.js";

type Section = "Acceptance Criteria" | "Success Metrics" | "Constraints";

// Shaped like the plan module's Requirement and Task.
const requirement = (text: string, checked: boolean | null = false, line = 5) => ({
  text,
  section: "Acceptance Criteria" as Section,
  line,
  checked,
});
const task = (id: string, title: string) => ({ id, title, done: true, line: 20 });

const requirements = [
  requirement("User can authenticate with email/password"),
  requirement("Password hashing uses bcrypt"),
  requirement("Login endpoint returns JWT token"),
];
const completedTasks = [
  task("TASK-001", "Authenticate users with email and password"),
  task("TASK-002", "Hash passwords with bcrypt"),
  task("TASK-003", "Return a JWT token from the login endpoint"),
];
const concern: Concern = {
  kind: "issue",
  text: "Login is still failing.",
  phrase: "failing",
  turnIndex: 3,
};

describe("verifyCompletion", () => {
  it("passes when every requirement is matched and there is no concern", () => {
    const result = verifyCompletion({ completedTasks, requirements, concerns: [] });
    expect(result.passed).toBe(true);
    expect(result.unmet).toEqual([]);
    expect(result.concerns).toEqual([]);
    expect(result.matches.map((match) => match.tasks[0]?.id)).toEqual([
      "TASK-001",
      "TASK-002",
      "TASK-003",
    ]);
  });

  it("fails with the unmet requirement listed", () => {
    const result = verifyCompletion({
      completedTasks: completedTasks.slice(0, 2),
      requirements,
      concerns: [],
    });
    expect(result.passed).toBe(false);
    expect(result.unmet).toEqual([requirements[2]]);
    expect(result.unmet[0]).toBe(requirements[2]);
  });

  it("fails on an unresolved concern even when every requirement is met", () => {
    const result = verifyCompletion({ completedTasks, requirements, concerns: [concern] });
    expect(result.passed).toBe(false);
    expect(result.unmet).toEqual([]);
    expect(result.concerns).toEqual([concern]);
  });

  it("counts a requirement checked in the plan as met", () => {
    const checked = requirement("Login endpoint returns JWT token", true);
    const result = verifyCompletion({
      completedTasks: completedTasks.slice(0, 2),
      requirements: [...requirements.slice(0, 2), checked],
    });
    expect(result.passed).toBe(true);
    expect(result.matches[2]).toMatchObject({ matched: false, met: true });
  });

  it("does not count an open or box-less requirement as met", () => {
    for (const checked of [false, null]) {
      const result = verifyCompletion({
        completedTasks: [],
        requirements: [requirement("Dark mode", checked)],
      });
      expect(result.passed).toBe(false);
    }
  });

  it("passes on requirements when there are none; concerns still count", () => {
    expect(verifyCompletion({ completedTasks: [], requirements: [] }).passed).toBe(true);
    expect(
      verifyCompletion({ completedTasks: [], requirements: [], concerns: [concern] }).passed,
    ).toBe(false);
  });

  it("uses the threshold it is given (the config's fuzzy_match_threshold)", () => {
    const seed = {
      completedTasks: [task("TASK-002", "Implement password hashing utility")],
      requirements: [requirement("Password hashing uses bcrypt")],
    };
    expect(verifyCompletion(seed).passed).toBe(false);
    expect(verifyCompletion({ ...seed, threshold: 0.6 }).passed).toBe(true);
    expect(() => verifyCompletion({ ...seed, threshold: 2 })).toThrow(RangeError);
  });

  it("lets two tasks meet one requirement together", () => {
    const result = verifyCompletion({
      completedTasks: [
        task("TASK-010", "Write unit tests for number formatting"),
        task("TASK-011", "Write unit tests for localisation"),
      ],
      requirements: [requirement("Unit tests cover formatting and localisation")],
    });
    expect(result.passed).toBe(true);
    expect(result.matches[0]?.tasks.map((matched) => matched.id)).toEqual(["TASK-010", "TASK-011"]);
  });
});

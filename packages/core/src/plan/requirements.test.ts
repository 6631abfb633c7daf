import { describe, expect, it } from "vitest";
import { seedAcceptanceCriteria } from "./fixtures/plan-corpus.js";
import { parsePlan } from "./parse-plan.js";
import { parsePlanRequirements } from "./requirements.js";

describe("parsePlanRequirements", () => {
  it("reads the seed's Acceptance Criteria example", () => {
    expect(parsePlanRequirements(seedAcceptanceCriteria)).toEqual([
      {
        text: "User can authenticate with email/password",
        section: "Acceptance Criteria",
        line: 2,
        checked: false,
      },
      {
        text: "Password hashing uses bcrypt",
        section: "Acceptance Criteria",
        line: 3,
        checked: false,
      },
      {
        text: "Login endpoint returns JWT token",
        section: "Acceptance Criteria",
        line: 4,
        checked: false,
      },
    ]);
  });

  it("orders by section priority, then document order, counting a repeated heading twice", () => {
    const plan = `# Plan
## Constraints
- Node 20 only
## Success Metrics
1. p95 latency under 200 ms
## Acceptance Criteria
- [x] Users can log in
## Acceptance criteria:
- [ ] Users can log out
### Security
- Passwords are hashed
`;
    expect(
      parsePlanRequirements(plan).map((requirement) => [
        requirement.section,
        requirement.text,
        requirement.checked,
      ]),
    ).toEqual([
      ["Acceptance Criteria", "Users can log in", true],
      ["Acceptance Criteria", "Users can log out", false],
      ["Acceptance Criteria", "Passwords are hashed", null],
      ["Success Metrics", "p95 latency under 200 ms", null],
      ["Constraints", "Node 20 only", null],
    ]);
  });

  it("reads nested items and skips code and quotes", () => {
    const plan =
      "## **Success Metrics**\n- Fast\n  - Under 1 s\n```\n- Not one\n```\n> - Not one either\n";
    expect(parsePlanRequirements(plan).map((requirement) => requirement.text)).toEqual([
      "Fast",
      "Under 1 s",
    ]);
  });

  it("never throws on a plan parsePlan rejects", () => {
    const plan = "- [ ] TASK-1 a\n- [ ] TASK-1 b\n## Constraints\n- Stay small\n";
    expect(() => parsePlan(plan)).toThrow();
    expect(parsePlanRequirements(plan)).toHaveLength(1);
  });

  it("are returned by parsePlan too, and their items are not tasks", () => {
    const plan = parsePlan(`## Tasks\n- [ ] TASK-1 a\n\n${seedAcceptanceCriteria}`);
    expect(plan.tasks.map((task) => task.id)).toEqual(["TASK-1"]);
    expect(plan.requirements).toHaveLength(3);
  });
});

import { expect, it } from "vitest";
import * as plan from "./index.js";

it("exports exactly the plan API", () => {
  expect(Object.keys(plan).sort()).toEqual([
    "DEFAULT_OPTIONAL_HEADINGS",
    "EmptyPlanError",
    "PlanParseError",
    "PlanUpdateError",
    "REQUIREMENT_SECTIONS",
    "createPlanCache",
    "isParallelHeading",
    "parsePlan",
    "parsePlanRequirements",
    "taskDependencies",
    "updatePlan",
  ]);
});

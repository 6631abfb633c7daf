import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestProject, type TestProject } from "./support.js";

// `loop validate`, run as a user runs it: the built binary in a throwaway folder.

let project: TestProject;

beforeEach(async () => {
  project = await createTestProject();
});

afterEach(async () => {
  await project.remove();
});

async function write(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(project.dir, path)), { recursive: true });
  await writeFile(join(project.dir, path), text);
}

const CONFIG = ".claude/loop/config.yaml";

const GOOD_PLAN = [
  "# Auth",
  "",
  "## RALPH_STATUS",
  "",
  "- EXIT_SIGNAL: false",
  "",
  "## Tasks",
  "",
  "- [x] TASK-001 Design the schema",
  "- [ ] TASK-002 Hash passwords",
  "",
].join("\n");

// Line 2 column 16: the value; line 6 column 1: the second TASK-1.
const BAD_PLAN = [
  "## RALPH_STATUS",
  "- EXIT_SIGNAL: maybe",
  "",
  "## Tasks",
  "- [ ] TASK-1 Design schema",
  "- [ ] TASK-1 Create login endpoint",
  "",
].join("\n");

// Line 3 column 3: the misspelt key; line 5 column 19: the value of the wrong type.
const BAD_CONFIG = [
  "limits:",
  "  max_iterations: 30",
  "  max_iteratoins: 40",
  "verification:",
  "  lookback_turns: two",
  "",
].join("\n");

interface JsonProblem {
  file: string;
  line: number | null;
  column: number | null;
  message: string;
  keyPath?: string;
  code?: string;
}

interface JsonReport {
  valid: boolean;
  problems: JsonProblem[];
  warnings: JsonProblem[];
}

describe("loop validate", { timeout: 30_000 }, () => {
  it("accepts the files loop init writes: exit 0", async () => {
    await project.run(["init"]);
    const run = await project.run(["validate"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("valid: plan.md (5 tasks, 0 done), .claude/loop/config.yaml\n");
    expect(run.stderr).toBe("");
  });

  it("calls a plan or config that is not UTF-8 invalid, with where, as loop run refuses it", async () => {
    const bad = Buffer.concat([
      Buffer.from("# Plan\n\n- [ ] TASK-001 Caf"),
      Buffer.from([0xe9]),
      Buffer.from("\n"),
    ]);
    await writeFile(join(project.dir, "plan.md"), bad);
    const validate = await project.run(["validate"]);
    expect(validate.code).toBe(1);
    expect(validate.stdout + validate.stderr).toContain(
      "plan.md:3:19: not valid UTF-8 (byte 0xe9)",
    );
    const run = await project.run(["run", "--cmd", "true"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("not valid UTF-8");

    await writeFile(join(project.dir, "plan.md"), "# Plan\n\n- [ ] TASK-001 Cafe\n");
    await mkdir(join(project.dir, ".claude", "loop"), { recursive: true });
    await writeFile(
      join(project.dir, ".claude", "loop", "config.yaml"),
      Buffer.concat([
        Buffer.from("limits:\n  max_iterations: 5 # caf"),
        Buffer.from([0xff]),
        Buffer.from("\n"),
      ]),
    );
    const config = await project.run(["validate"]);
    expect(config.code).toBe(1);
    expect(config.stdout + config.stderr).toContain(
      "config.yaml:2:26: not valid UTF-8 (byte 0xff)",
    );
    const refused = await project.run(["run", "--cmd", "true"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("not valid UTF-8 (byte 0xff)");
  });

  it("accepts a good plan without a config: the defaults apply", async () => {
    await write("plan.md", GOOD_PLAN);
    const run = await project.run(["validate"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("valid: plan.md (2 tasks, 1 done)");
    expect(run.stdout).toContain("no .claude/loop/config.yaml (the defaults apply)");
  });

  it("prints every problem of a bad plan and a bad config as file:line:column: exit 1", async () => {
    await write("plan.md", BAD_PLAN);
    await write(CONFIG, BAD_CONFIG);
    const run = await project.run(["validate"]);
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toEqual([
      `${CONFIG}:3:3: limits.max_iteratoins: unknown key "max_iteratoins" — did you mean "max_iterations"?`,
      `${CONFIG}:5:19: verification.lookback_turns: expected an integer ≥ 0, got "two"`,
      'plan.md:2:16: EXIT_SIGNAL: expected true or false (yes and no are accepted too), got "maybe"',
      expect.stringMatching(/^plan\.md:6:1: Duplicate task id "TASK-1", first used at 5:1/),
      `not valid: 4 problems in ${CONFIG}, plan.md`,
    ]);
  });

  it("checks the plan named on the command line, and a .json plan as a prd.json", async () => {
    await write("other.md", BAD_PLAN);
    const markdown = await project.run(["validate", "other.md"]);
    expect(markdown.code).toBe(1);
    expect(markdown.stdout).toMatch(/^other\.md:6:1: Duplicate task id/m);
    await write("prd.json", '{\n  "stories": [\n    { "id": "S1", "dependsOn": ["S9"] }\n  ]\n}\n');
    const prd = await project.run(["validate", "prd.json"]);
    expect(prd.code).toBe(1);
    expect(prd.stdout).toMatch(/^prd\.json:3:5: stories\[0\]\.title: missing/m);
    expect(prd.stdout).toMatch(
      /^prd\.json:3:33: stories\[0\]\.dependsOn\[0\]: depends on unknown story `S9`$/m,
    );
  });

  it("prints warnings but exits 0 when there is no problem", async () => {
    await write("plan.md", GOOD_PLAN);
    await write(CONFIG, "circuit_breaker:\n  no_progress_loops: 2\n");
    const run = await project.run(["validate"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^\.claude\/loop\/config\.yaml:2:3: warning: circuit_breaker\.no_progress_loops \(2\) is not above tasks\.max_attempts/m,
    );
    expect(run.stdout).toMatch(/; 1 warning\n$/);
  });

  it("warns, with its position, about an item whose checkbox is almost a task's", async () => {
    await write("plan.md", "# Plan\n\n## Tasks\n\n- [ ] TASK-1 One\n- [] TASK-4 Two\n");
    const run = await project.run(["validate"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^plan\.md:6:3: warning: `\[\]` is not a task checkbox/m);
    expect(run.stdout).toContain("(1 task, 0 done)");
  });

  it("reports a missing plan, and a missing --config, as problems", async () => {
    const plan = await project.run(["validate"]);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain("plan.md: not found");
    await write("plan.md", GOOD_PLAN);
    const config = await project.run(["validate", "--config", "missing.yaml"]);
    expect(config.code).toBe(1);
    expect(config.stdout).toContain("missing.yaml: not found");
  });

  it("prints { valid, problems, warnings } with --json", async () => {
    await write("plan.md", BAD_PLAN);
    await write(CONFIG, BAD_CONFIG);
    const run = await project.run(["validate", "--json"]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.valid).toBe(false);
    expect(report.problems.map(({ file, line, column }) => `${file}:${line}:${column}`)).toEqual([
      `${CONFIG}:3:3`,
      `${CONFIG}:5:19`,
      "plan.md:2:16",
      "plan.md:6:1",
    ]);
    expect(report.problems[0]?.keyPath).toBe("limits.max_iteratoins");
    expect(report.problems[2]).not.toHaveProperty("keyPath");
    expect(report.warnings).toEqual([]);
  });

  it("gives warnings their code in --json, and a valid report exit 0", async () => {
    await write("plan.md", GOOD_PLAN);
    await write(CONFIG, "tasks:\n  max_attempts: 9\n");
    const run = await project.run(["validate", "--json"]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report).toMatchObject({ valid: true, problems: [] });
    expect(report.warnings).toEqual([
      expect.objectContaining({
        file: CONFIG,
        line: null,
        column: null,
        code: "BREAKER_OPENS_BEFORE_TASK_SKIP",
      }),
    ]);
  });

  it("rejects bad flags with exit code 2", async () => {
    const unknown = await project.run(["validate", "--jsno"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option --jsno. Did you mean --json?");
    const extra = await project.run(["validate", "a.md", "b.md"]);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain("unexpected argument b.md");
  });
});

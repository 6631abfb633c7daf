import { readFileSync } from "node:fs";
import {
  analyzeResponse,
  PlanParseError,
  parsePlan,
  parsePlanRequirements,
  parseStatusBlock,
  updatePlan,
} from "@loop/core";
import { describe, expect, it } from "vitest";
import { parseClaudeStream } from "../../packages/claude/src/claude-stream-parser.js";
import { countEditedFiles } from "../../packages/claude/src/transcript-since.js";
import {
  HOSTILE_ANSWERS,
  HOSTILE_PLANS,
  realisticAnswer,
  repeatedFields,
  repeatTo,
  TOO_DEEP_PLANS,
} from "../fixtures/fuzz/hostile-inputs.js";

const fixture = (path: string) =>
  readFileSync(new URL(`../fixtures/fuzz/${path}`, import.meta.url), "utf8");

/** Milliseconds of CPU this process has used: unlike the wall clock, other processes sharing the machine do not add to it. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The fastest of a few runs, after one unmeasured, in CPU time: noise only ever adds time. */
function fastest(run: () => unknown, runs = 3): number {
  run();
  let best = Number.POSITIVE_INFINITY;
  for (let index = 0; index < runs; index += 1) {
    const start = cpuMs();
    run();
    best = Math.min(best, cpuMs() - start);
  }
  return best;
}

/**
 * How much longer the work takes on an input 8 times as large. Linear time gives about 8 and
 * quadratic time 64; the tests allow 30, which no machine's noise reaches on the minimum of
 * several runs. No test asserts a duration: the benchmark prints those.
 */
function growth(
  make: (size: number) => string,
  run: (text: string) => unknown,
  size: number,
  runs = 3,
) {
  const small = make(size);
  const large = make(size * 8);
  return leastOf(
    () =>
      fastest(() => run(large), runs) /
      Math.max(
        fastest(() => run(small), runs),
        0.5,
      ),
  );
}

/**
 * The least of up to three measurements of a growth ratio, stopping at the first below `below`:
 * the machine's load only ever makes one ratio larger (a busy moment during the large input's
 * runs), while work of a higher order gives a ratio over the limit every time.
 */
function leastOf(measure: () => number, below = 16): number {
  let least = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3 && least >= below; attempt += 1) {
    least = Math.min(least, measure());
  }
  return least;
}

/**
 * How much longer parsing takes on a plan 16 times as large, from a size at which the smaller
 * plan takes at least 10 ms. The fast scanner reads a few hundred tasks in well under a
 * millisecond, where timer resolution, the JIT and one collection of garbage decide the figure;
 * so the JIT is warmed first and the size doubles from `start` until the small parse is slow
 * enough to measure. Linear time
 * gives about 16 and quadratic time 256; the tests allow 64.
 */
function planGrowth(make: (size: number) => string, start: number): number {
  const parse = (text: string) => parsePlan(text);
  // Warm the JIT first: a cold first parse of a few hundred tasks takes longer than a warm
  // parse of a few thousand, which would make the calibration stop too early.
  fastest(() => parse(make(start * 16)), 2);
  let size = start;
  while (size < start * 64 && fastest(() => parse(make(size)), 2) < 10) size *= 2;
  const small = make(size);
  const large = make(size * 16);
  return leastOf(() => fastest(() => parse(large), 2) / fastest(() => parse(small), 5), 32);
}

describe("hostile agent answers (issue 13, item 5)", () => {
  const shapes: readonly [string, (size: number) => string, number][] = [
    ["link openers `[a](`", (size) => repeatTo("[a](", size), 4000],
    ["nested quotes `> `", (size) => repeatTo("> ", size), 4000],
    ["a run of `!`", (size) => `${"!".repeat(size)}x`, 4000],
    ["emphasis `a*`", (size) => repeatTo("a*", size), 4000],
    ["promise tags on one line", (size) => repeatTo("<promise>DONE</promise> ", size), 4000],
    [
      "`RALPH_STATUS:` lines without a field",
      (size) => repeatTo("RALPH_STATUS:\nNote: x\n", size),
      4000,
    ],
    [
      "changelog headings and commit lines",
      (size) => repeatTo("## [1.2.0]\nRecent commits:\n- a1b2c3d All tasks finished\n", size),
      4000,
    ],
    ["an ordinary answer", realisticAnswer, 2000],
  ];
  for (const [name, make, size] of shapes) {
    it(`analyzeResponse takes linear time on ${name}`, { timeout: 60_000 }, () => {
      expect(growth(make, (text) => analyzeResponse(text), size)).toBeLessThan(30);
    });
  }

  it("parseStatusBlock takes linear time on a field repeated thousands of times", () => {
    expect(growth(repeatedFields, parseStatusBlock, 500)).toBeLessThan(30);
    const block = parseStatusBlock(repeatedFields(8000));
    expect(block?.status).toBe("IN_PROGRESS");
    expect(block?.exitSignal).toBe(false);
    expect(block?.problems).toHaveLength(7999);
    expect(block?.problems.at(-1)).toMatchObject({ line: 8003, column: 1, path: ["STATUS"] });
  });

  it("parseStatusBlock takes linear time on a YAML-form block of thousands of fields", () => {
    const yamlFields = (count: number) =>
      `Done.\n\nRALPH_STATUS:\n${"  STATUS: IN_PROGRESS\n".repeat(count)}  EXIT_SIGNAL: false\n`;
    expect(growth(yamlFields, parseStatusBlock, 500)).toBeLessThan(30);
    const block = parseStatusBlock(yamlFields(8000));
    expect(block).toMatchObject({ status: "IN_PROGRESS", exitSignal: false, line: 3 });
    expect(block?.problems).toHaveLength(7999);
  });

  it("reads only the end of a long answer, and the status block wherever it is", () => {
    const answer = `All tasks are complete.\n\n${realisticAnswer(200_000)}`;
    const signals = analyzeResponse(answer);
    expect(signals.completionPhrases).toEqual([]);
    expect(signals.statusBlock?.recommendation).toBe("Continue with TASK-4");
    expect(signals.questions).toContain("Should I update the fixture, or change the expectation?");
    const early = `---RALPH_STATUS---\nEXIT_SIGNAL: true\n---END_RALPH_STATUS---\n${"Working. ".repeat(10_000)}`;
    expect(analyzeResponse(early).exitSignal).toEqual({ value: true, source: "status_block" });
  });

  it("keeps out of the prose a code block or tool output that began before the part read", () => {
    const inCode = `\`\`\`\n${"All tasks are complete.\n".repeat(4000)}\`\`\`\nStill working.\n`;
    expect(analyzeResponse(inCode).completionPhrases).toEqual([]);
    const inTool = `<tool_result>\n${"All tasks are complete.\n".repeat(4000)}</tool_result>\nOk.\n`;
    expect(analyzeResponse(inTool).completionPhrases).toEqual([]);
    const inProse = `${"Working on it.\n".repeat(6000)}All tasks are complete.\n`;
    expect(analyzeResponse(inProse).completionPhrases).toEqual(["All tasks are complete"]);
  });

  it("reads the rest of a line longer than 1,000 characters as its start is read", () => {
    const long = `${"word ".repeat(300)}and all tasks are complete.`;
    expect(analyzeResponse(long).completionPhrases).toEqual(["all tasks are complete"]);
    expect(analyzeResponse(`> ${long}`).completionPhrases).toEqual([]);
    expect(
      analyzeResponse(`${"word ".repeat(300)}\`all tasks are complete\``).completionPhrases,
    ).toEqual([]);
  });

  it("never throws on any hostile shape, at a small size", () => {
    for (const shape of HOSTILE_ANSWERS) {
      expect(() => analyzeResponse(shape.make(2000)), shape.name).not.toThrow();
    }
  });
});

describe("hostile plans (issue 13, item 8)", () => {
  it("refuses nesting deeper than 100 with a PlanParseError at the marker that goes too deep", () => {
    for (const { text, line, column } of TOO_DEEP_PLANS) {
      for (const run of [
        () => parsePlan(text, { file: "plan.md" }),
        () => updatePlan(text, { status: { exitSignal: true } }, { file: "plan.md" }),
        () => parsePlanRequirements(text),
      ]) {
        let thrown: unknown;
        try {
          run();
        } catch (error) {
          thrown = error;
        }
        expect(PlanParseError.isInstance(thrown)).toBe(true);
        expect((thrown as PlanParseError).issues).toEqual([
          expect.objectContaining({ line, column }),
        ]);
      }
    }
  });

  it("reads a plan nested exactly 100 deep", () => {
    const plan = Array.from(
      { length: 100 },
      (_, index) => `${"  ".repeat(index)}- [ ] task ${index}`,
    ).join("\n");
    const tasks = parsePlan(plan).tasks;
    expect(tasks).toHaveLength(100);
    expect(tasks.at(-1)).toMatchObject({ depth: 99, parentId: "task-98" });
  });

  const planShapes = HOSTILE_PLANS.filter((shape) => shape.unit !== "levels");
  for (const shape of planShapes) {
    it(`parsePlan takes linear time on ${shape.name}`, { timeout: 60_000 }, () => {
      const size = shape.unit === "characters" ? 2000 : 100;
      expect(planGrowth(shape.make, size)).toBeLessThan(64);
    });
  }

  it("reads the title of a task longer than 4,000 characters as written, markup kept", () => {
    const title = `**Bold** \`co*de\` [link](x) ${"snake_case ".repeat(400).trim()}`;
    const plan = `- [ ] TASK-1 ${title}\n- [x] TASK-2 *Short*\n`;
    const tasks = parsePlan(plan).tasks;
    expect(tasks.map((task) => task.title)).toEqual([title.replace(/`/g, ""), "Short"]);
    expect(updatePlan(plan, { check: ["TASK-1"] })).toBe(
      plan.replace("- [ ] TASK-1", "- [x] TASK-1"),
    );
  });

  it("gives thousands of identical titles their numbered ids", () => {
    const identical = HOSTILE_PLANS.find((shape) => shape.name === "identical titles");
    const ids = parsePlan(identical?.make(3000) ?? "").tasks.map((task) => task.id);
    expect(ids.slice(0, 3)).toEqual(["same-title", "same-title-2", "same-title-3"]);
    expect(ids.at(-1)).toBe("same-title-3000");
  });
});

describe("plans that once broke (issue 13, items 9 and 10)", () => {
  it("does not read a task in a code block whose info string holds U+2028", () => {
    const tasks = parsePlan(fixture("plans/fence-info-u2028.md")).tasks.map((task) => task.id);
    expect(tasks).toContain("TASK-100");
    expect(tasks).not.toContain("FAKE-1");
    expect(tasks).toHaveLength(46);
  });

  for (const name of ["title-then-tasks", "no-headings", "setext-title", "unclosed-fence-at-end"]) {
    it(`adds a RALPH_STATUS section to ${name}.md without changing its tasks`, () => {
      const plan = fixture(`plans/${name}.md`);
      const updated = updatePlan(plan, { status: { exitSignal: false, completionIndicators: 1 } });
      const summary = (text: string) =>
        parsePlan(text).tasks.map(({ id, title, done, depth }) => ({ id, title, done, depth }));
      expect(summary(updated)).toEqual(summary(plan));
      expect(parsePlan(updated).status).toMatchObject({
        exitSignal: false,
        completionIndicators: 1,
      });
    });
  }
});

describe("Claude Code output that once broke (issue 13, item 10)", () => {
  it("reads stream-json lines whose type is __proto__ or another Object.prototype name", () => {
    const run = parseClaudeStream(fixture("claude/proto-types.jsonl"));
    expect(run.assistantText).toEqual(["Still reading."]);
    expect(run.result).toMatchObject({ text: "Done.", isError: false, sessionId: "s1" });
    expect(run.malformedLines).toBe(0);
  });

  it("counts only real editing tools in a transcript", () => {
    expect(countEditedFiles(fixture("claude/proto-tool-names.jsonl"))).toBe(1);
  });
});

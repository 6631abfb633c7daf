// Every parser the loop feeds with text it does not control, as a fuzz target: an arbitrary
// (fast-check) of the inputs it may get, and a check of one input that throws when the parser
// breaks a promise it documents. The fuzz tests (`*.fuzz.test.ts`, in `pnpm test`) run a few
// hundred inputs each with a fixed seed; `pnpm fuzz` (test/fuzz/run-fuzz.ts) runs 10,000 each
// and prints the slowest.

import { isDeepStrictEqual } from "node:util";
import {
  analyzeResponse,
  ConfigError,
  PlanParseError,
  PlanUpdateError,
  PrdParseError,
  PrdUpdateError,
  parseConfig,
  parseDecisionEvent,
  parsePlan,
  parsePrd,
  parseStatusBlock,
  updatePlan,
  updatePrd,
} from "@loop/core";
import fc from "fast-check";
import {
  createClaudeStreamParser,
  parseClaudeStream,
} from "../../packages/claude/src/claude-stream-parser.js";
import { countEditedFiles, transcriptSince } from "../../packages/claude/src/transcript-since.js";

/** One parser under fuzzing. */
export interface FuzzTarget<Input = unknown> {
  /** The parser, as `pnpm fuzz` names it. */
  readonly name: string;
  /** The inputs to try. */
  readonly inputs: fc.Arbitrary<Input>;
  /** Runs the parser on one input; throws when a documented promise is broken. */
  check(input: Input): void;
  /** A short description of an input, for reports. */
  describe(input: Input): string;
}

/** The seed of every fuzz run, so that a failure can be replayed. */
export const FUZZ_SEED = 20_261_201;

/** Fails a check with a message. */
function fail(message: string): never {
  throw new Error(message);
}

/** Runs `run`; a thrown error must be one that `allowed` accepts. */
function onlyThrows<Value>(
  run: () => Value,
  allowed: readonly ((error: unknown) => boolean)[],
): { readonly ok: true; readonly value: Value } | { readonly ok: false; readonly error: unknown } {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    if (allowed.some((isAllowed) => isAllowed(error))) return { ok: false, error };
    throw error;
  }
}

/** A quoted, shortened input for reports. */
function preview(text: string): string {
  const shown = text.length > 160 ? `${text.slice(0, 160)}… (${text.length} characters)` : text;
  return JSON.stringify(shown);
}

/** Characters that parsers of text tend to treat specially. */
const SPECIAL_CHARACTERS = [
  "\n",
  "\r\n",
  "\r",
  "\u2028",
  "\u2029",
  "\uFEFF",
  "\t",
  "\u0000",
  "\u00a0",
  "\ud83d\ude80",
  "\ud800",
  "`",
  "*",
  "_",
  "[",
  "]",
  "(",
  ")",
  "<",
  ">",
  "#",
  "-",
  ":",
  "\\",
  "!",
  ".",
  "?",
  "~",
  "|",
  '"',
];

/** Short runs of special characters and random text, to mix into structured pieces. */
const noise = fc.oneof(
  fc.constantFrom(...SPECIAL_CHARACTERS),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: "grapheme", maxLength: 4 }),
  fc
    .tuple(fc.constantFrom(...SPECIAL_CHARACTERS), fc.integer({ min: 2, max: 60 }))
    .map(([character, count]) => character.repeat(count)),
);

/** Text made of `pieces` and noise, joined as lines or run together. */
function textOf(pieces: fc.Arbitrary<string>, maxLength: number): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.array(fc.oneof({ arbitrary: pieces, weight: 4 }, { arbitrary: noise, weight: 1 }), {
        maxLength,
      }),
      fc.constantFrom("\n", "\r\n", "", " "),
    )
    .map(([parts, separator]) => parts.join(separator));
}

// --- Plans ------------------------------------------------------------------------------

const PLAN_PIECES = [
  "# Plan",
  "## Tasks",
  "## RALPH_STATUS",
  "### Phase 1",
  "## Optional",
  "## Acceptance Criteria",
  "Plan",
  "====",
  "---",
  "- [ ] TASK-1 Design schema",
  "- [x] TASK-2 Hash passwords",
  "- [ ] TASK-1 Duplicate id",
  "* [X] Same title",
  "- [ ] Same title",
  "  - [ ] Nested task",
  "    - [x] Deeper task",
  "1. [ ] Ordered task",
  "+ [ ] Plus task",
  "- plain item",
  "- EXIT_SIGNAL: false",
  "- EXIT_SIGNAL: maybe",
  "- completion_indicators: 2",
  "- current_task: TASK-1",
  "**EXIT_SIGNAL**: **true**",
  "> - [ ] quoted task",
  "> > quote",
  "```",
  "```js\u2028info",
  "~~~",
  "  ```",
  "    - [ ] indented code",
  "<!--",
  "-->",
  "<div>",
  "[ref]: https://example.com",
  "- [ ] see [a][ref]",
  `- [ ] TASK-9 A long one ${"**a** _b_ [c](d) `e` ".repeat(220)}`,
  "",
];

/** Markdown plans: plan-shaped lines with noise. */
export const planText: fc.Arbitrary<string> = fc
  .tuple(fc.boolean(), textOf(fc.constantFrom(...PLAN_PIECES), 40))
  .map(([bom, text]) => (bom ? `\uFEFF${text}` : text));

function taskIds(text: string): string[] {
  const parsed = onlyThrows(() => parsePlan(text), [PlanParseError.isInstance]);
  return parsed.ok ? parsed.value.tasks.map((task) => task.id) : [];
}

const parsePlanTarget: FuzzTarget<string> = {
  name: "parsePlan",
  inputs: planText,
  describe: preview,
  check: (text) => {
    const result = onlyThrows(
      () => parsePlan(text, { file: "plan.md" }),
      [PlanParseError.isInstance],
    );
    if (!result.ok) {
      const error = result.error as PlanParseError;
      if (error.issues.length === 0) fail("a PlanParseError without issues");
      for (const issue of error.issues) {
        if (issue.line === undefined || issue.column === undefined)
          fail("an issue without location");
      }
      return;
    }
    const plan = result.value;
    const lines = text.split(/\r\n|\n|\r/).length;
    const ids = new Set<string>();
    for (const task of plan.tasks) {
      if (ids.has(task.id)) fail(`task id ${task.id} given twice`);
      ids.add(task.id);
      if (task.line < 1 || task.endLine < task.line || task.endLine > lines)
        fail("a task outside the text");
      if (task.parentId !== undefined && !ids.has(task.parentId)) fail("a parent after its child");
    }
    if (!isDeepStrictEqual(parsePlan(text), plan)) fail("two parses differ");
  },
};

/** A plan and an edit of it: ids to check and uncheck (some unknown), status values. */
const planEdit = planText.chain((text) => {
  const ids = taskIds(text);
  const id =
    ids.length > 0
      ? fc.oneof(fc.constantFrom(...ids), fc.constant("TASK-404"))
      : fc.constant("TASK-404");
  return fc.record({
    text: fc.constant(text),
    check: fc.uniqueArray(id, { maxLength: 3 }),
    uncheck: fc.uniqueArray(id, { maxLength: 2 }),
    status: fc.option(
      fc.record(
        {
          exitSignal: fc.boolean(),
          completionIndicators: fc.integer({ min: 0, max: 9 }),
          currentTask: fc.option(fc.constantFrom("TASK-1", "TASK-2", "next"), { nil: null }),
        },
        { requiredKeys: [] },
      ),
      { nil: undefined },
    ),
  });
});

type PlanEditInput = typeof planEdit extends fc.Arbitrary<infer Value> ? Value : never;

/** Lines of `original` that no edit may touch (no `:`, no checkbox) must survive, in order. */
function keepsUntouchedLines(original: string, updated: string): boolean {
  const withoutBom = (text: string) => text.replace(/^\uFEFF+/, "");
  const after = withoutBom(updated).split(/\r\n|\n|\r/);
  let at = 0;
  for (const line of withoutBom(original).split(/\r\n|\n|\r/)) {
    if (line.includes(":") || /\[[ xX]\]/.test(line)) continue;
    while (at < after.length && after[at] !== line) at += 1;
    if (at === after.length) return false;
    at += 1;
  }
  return true;
}

const updatePlanTarget: FuzzTarget<PlanEditInput> = {
  name: "updatePlan",
  inputs: planEdit,
  describe: (input) => `${preview(input.text)} ${JSON.stringify({ ...input, text: undefined })}`,
  check: ({ text, check, uncheck, status }) => {
    const edit = { check, uncheck, ...(status === undefined ? {} : { status }) };
    const result = onlyThrows(
      () => updatePlan(text, edit),
      [PlanParseError.isInstance, PlanUpdateError.isInstance],
    );
    if (!result.ok) return;
    const updated = result.value;
    const before = parsePlan(text).tasks;
    const after = parsePlan(updated).tasks;
    if (after.length !== before.length) fail(`${before.length} tasks became ${after.length}`);
    for (const [index, task] of before.entries()) {
      const edited = after[index];
      if (edited?.id !== task.id || edited.title !== task.title) fail(`task ${task.id} changed`);
      const done = check.includes(task.id) ? true : uncheck.includes(task.id) ? false : task.done;
      if (edited.done !== done) fail(`task ${task.id} is done: ${edited.done}, wanted ${done}`);
    }
    if (status === undefined || Object.keys(status).length === 0) {
      if (updated.length !== text.length) fail("a checkbox edit changed the length");
      for (let index = 0; index < text.length; index += 1) {
        if (updated[index] !== text[index] && !/[ xX]/.test(text[index] ?? "")) {
          fail(`character ${index} changed outside a checkbox`);
        }
      }
    } else {
      const read = parsePlan(updated).status;
      if (read === null) fail("no status section after a status edit");
      if (status.exitSignal !== undefined && read.exitSignal !== status.exitSignal) {
        fail("EXIT_SIGNAL not written");
      }
      if (!keepsUntouchedLines(text, updated)) fail("a line outside the edits was lost");
    }
    if (updatePlan(updated, edit) !== updated) fail("the edit is not idempotent");
  },
};

// --- prd.json ---------------------------------------------------------------------------

const story = fc.record(
  {
    id: fc.oneof(
      fc.constantFrom("US-001", "US-002", "S1"),
      fc.integer({ min: 1, max: 3 }),
      fc.string({ maxLength: 4 }),
    ),
    title: fc.string({ maxLength: 12 }),
    passes: fc.oneof(fc.boolean(), fc.constant("yes")),
    dependencies: fc.array(fc.constantFrom("US-001", "US-002", "S1", "US-404"), { maxLength: 2 }),
    priority: fc.integer({ min: 0, max: 5 }),
  },
  { requiredKeys: ["id"] },
);

/** prd.json texts: valid documents, then some of them broken by a few characters. */
export const prdText: fc.Arbitrary<string> = fc
  .tuple(
    fc.record(
      {
        project: fc.string({ maxLength: 8 }),
        stories: fc.array(story, { maxLength: 4 }),
        userStories: fc.array(story, { maxLength: 4 }),
        completedStories: fc.integer({ min: 0, max: 4 }),
      },
      { requiredKeys: [] },
    ),
    fc.option(fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.string({ maxLength: 3 })), { nil: null }),
    fc.constantFrom(0, 2, "\t"),
    fc.boolean(),
  )
  .map(([document, damage, indent, proto]) => {
    const written = JSON.stringify(document, null, indent);
    const json = proto ? written.replace("{", '{"__proto__": {"passes": true}, ') : written;
    if (damage === null) return json;
    const [at, remove, insert] = damage;
    const offset = at % (json.length + 1);
    return json.slice(0, offset) + insert + json.slice(offset + remove);
  });

const parsePrdTarget: FuzzTarget<string> = {
  name: "parsePrd",
  inputs: prdText,
  describe: preview,
  check: (json) => {
    const result = onlyThrows(
      () => parsePrd(json, { file: "prd.json" }),
      [PrdParseError.isInstance],
    );
    if (!result.ok) {
      if ((result.error as PrdParseError).issues.length === 0)
        fail("a PrdParseError without issues");
      return;
    }
    const ids = result.value.stories.map((entry) => entry.id);
    if (new Set(ids).size !== ids.length) fail("two stories with one id");
  },
};

const updatePrdTarget: FuzzTarget<{ json: string; passes: Record<string, boolean> }> = {
  name: "updatePrd",
  inputs: fc.record({
    json: prdText,
    passes: fc.dictionary(fc.constantFrom("US-001", "US-002", "S1", "1", "US-404"), fc.boolean(), {
      maxKeys: 3,
    }),
  }),
  describe: (input) => `${preview(input.json)} ${JSON.stringify(input.passes)}`,
  check: ({ json, passes }) => {
    const result = onlyThrows(
      () => updatePrd(json, { passes }),
      [PrdParseError.isInstance, PrdUpdateError.isInstance],
    );
    if (!result.ok) return;
    const before = parsePrd(json).stories;
    const after = parsePrd(result.value).stories;
    if (after.length !== before.length) fail("the number of stories changed");
    for (const [index, entry] of before.entries()) {
      const wanted = passes[entry.id] ?? entry.passes;
      if (after[index]?.passes !== wanted || after[index]?.id !== entry.id)
        fail(`story ${entry.id} is wrong`);
    }
    if (updatePrd(result.value, { passes }) !== result.value) fail("the edit is not idempotent");
  },
};

// --- config.yaml ------------------------------------------------------------------------

const CONFIG_PIECES = [
  "version: 1",
  "exit_policy:",
  "  min_completion_indicators: 2",
  "  min_completion_indicatorz: 3",
  "  require_exit_signal: true",
  "limits:",
  "  max_iterations: 20",
  "  max_iterations: -1",
  "  max_cost_usd: null",
  "circuit_breaker:",
  "  no_progress_loops: three",
  "plans:",
  "  optional_headings: [Optional, Later]",
  "anchor: &a { x: 1 }",
  "alias: *a",
  "__proto__: {}",
  "- item",
  "key: 'unterminated",
  "# comment",
  "",
];

/** config.yaml texts: config-shaped lines with noise. */
export const configText: fc.Arbitrary<string> = textOf(fc.constantFrom(...CONFIG_PIECES), 20);

const parseConfigTarget: FuzzTarget<string> = {
  name: "parseConfig",
  inputs: configText,
  describe: preview,
  check: (yaml) => {
    const result = onlyThrows(
      () => parseConfig(yaml, { file: "config.yaml" }),
      [ConfigError.isInstance],
    );
    if (!result.ok) {
      if ((result.error as ConfigError).issues.length === 0) fail("a ConfigError without issues");
      return;
    }
    if (result.value.version !== 1) fail("a config without its version");
  },
};

// --- Agent answers ----------------------------------------------------------------------

const ANSWER_PIECES = [
  "All tasks are complete.",
  "Not all tasks are complete, but the tests pass.",
  "I implemented the parser and added tests.",
  "Should I use A or B?",
  "Please confirm before I proceed.",
  "I am blocked: I need your decision.",
  "<promise>DONE</promise>",
  "When finished, output:",
  "Permission to use Bash with command rm -rf dist has been denied.",
  "I don't have permission to run `npm install`.",
  "Error: expected 3 to be 4",
  "FAILED tests/test_a.py::test_b - AssertionError",
  "npm ERR! code ELIFECYCLE",
  "Traceback (most recent call last):",
  '  File "a.py", line 3, in <module>',
  "ValueError: bad",
  "$ pnpm test",
  "<tool_result>",
  "</tool_result>",
  "<stdout>",
  "```",
  "```ts",
  "> quoted: all tasks are complete",
  "- [x] TASK-1 done",
  "[a](",
  "> > > >",
  "e.g. this. i.e. that!",
  "---RALPH_STATUS---",
  "**STATUS:** COMPLETE",
  "STATUS: IN_PROGRESS",
  "STATUS: DONE",
  "EXIT_SIGNAL: true",
  "EXIT_SIGNL: false",
  "FILES_MODIFIED: 3 (a.ts, b.ts)",
  "__proto__: x",
  "RECOMMENDATION: Continue with TASK-2",
  "---END_RALPH_STATUS---",
  "RALPH_STATUS:",
  "**ralph_status:**",
  "  STATUS: COMPLETE",
  "  exit_signal: false",
  "```yaml",
  "Recent commits:",
  "## [1.2.0] - 2026-01-15",
  "### Added",
  "- a1b2c3d All tasks are complete",
  "- All tasks finished",
  "Project is complete and ready for review.",
  "Fatal: not a git repository",
  "Link: error: undefined symbol _main",
  `I checked ${"every file ".repeat(100)}and all tasks are complete. Should I push \`main\` now?`,
  `> ${"quoted ".repeat(160)} all tasks are complete`,
  "",
];

/** Agent answers: answer-shaped lines with noise. */
export const answerText: fc.Arbitrary<string> = textOf(fc.constantFrom(...ANSWER_PIECES), 40);

const analyzeResponseTarget: FuzzTarget<{ text: string; promise: string | undefined }> = {
  name: "analyzeResponse",
  inputs: fc.record({
    text: answerText,
    promise: fc.option(fc.constantFrom("DONE", "ALL DONE", ""), { nil: undefined }),
  }),
  describe: (input) => `${preview(input.text)} promise ${JSON.stringify(input.promise)}`,
  check: ({ text, promise }) => {
    const signals = analyzeResponse(text, {
      completionPromise: promise,
      extraCompletionPhrases: ["ready to ship"],
    });
    if (signals.completionIndicatorCount !== signals.completionPhrases.length)
      fail("count is not the phrases");
    if (signals.askingQuestions !== signals.questions.length > 0)
      fail("askingQuestions is not questions");
    if (signals.errorFingerprint !== null && !/^[0-9a-f]{16}$/.test(signals.errorFingerprint)) {
      fail("a fingerprint that is not 16 hex digits");
    }
    if ((signals.errorFingerprint === null) !== (signals.errorSummary === null))
      fail("fingerprint without summary");
    if (signals.exitSignal !== null && typeof signals.exitSignal.value !== "boolean")
      fail("a non-boolean exit signal");
    if (signals.exitSignal?.value === false && signals.doneSignal)
      fail("done against EXIT_SIGNAL: false");
    if (!isDeepStrictEqual(signals.statusBlock, parseStatusBlock(text)))
      fail("the status block differs");
    if (
      !isDeepStrictEqual(
        analyzeResponse(text, {
          completionPromise: promise,
          extraCompletionPhrases: ["ready to ship"],
        }),
        signals,
      )
    ) {
      fail("two analyses differ");
    }
  },
};

const parseStatusBlockTarget: FuzzTarget<string> = {
  name: "parseStatusBlock",
  inputs: answerText,
  describe: preview,
  check: (text) => {
    const block = parseStatusBlock(text);
    if (block === null) return;
    const lines = text.split(/\r\n|\n|\r/);
    if (block.line < 1 || block.endLine <= block.line || block.endLine > lines.length)
      fail("the block's lines are wrong");
    for (const problem of block.problems) {
      const line = lines[(problem.line ?? 0) - 1];
      if (
        line === undefined ||
        (problem.column ?? 0) < 1 ||
        (problem.column ?? 0) > line.length + 1
      ) {
        fail(`a problem outside the text: ${JSON.stringify(problem)}`);
      }
    }
    for (const value of Object.values(block.fields))
      if (typeof value !== "string") fail("a field that is not text");
  },
};

// --- Claude Code output -----------------------------------------------------------------

const EVENT_TYPES = [
  "system",
  "assistant",
  "user",
  "result",
  "rate_limit_event",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
];

/** A stream-json event: a JSON object with a `type`, or anything JSON. */
const streamEvent = fc.oneof(
  fc.record(
    {
      type: fc.constantFrom(...EVENT_TYPES),
      subtype: fc.constantFrom("init", "success", "error_max_turns", "__proto__"),
      session_id: fc.oneof(fc.string({ maxLength: 6 }), fc.integer()),
      message: fc.record({
        content: fc.array(
          fc.oneof(
            fc.jsonValue({ maxDepth: 2 }),
            fc.record({
              type: fc.constantFrom("text", "tool_use", "__proto__"),
              text: fc.string({ maxLength: 6 }),
              name: fc.constantFrom("Edit", "Write", "__proto__", "constructor"),
              input: fc.jsonValue({ maxDepth: 2 }),
            }),
          ),
          { maxLength: 3 },
        ),
      }),
      result: fc.string({ maxLength: 10 }),
      permission_denials: fc.jsonValue({ maxDepth: 2 }),
      modelUsage: fc.jsonValue({ maxDepth: 3 }),
      usage: fc.jsonValue({ maxDepth: 2 }),
      rate_limit_info: fc.jsonValue({ maxDepth: 2 }),
      is_api_error_message: fc.boolean(),
    },
    { requiredKeys: ["type"] },
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Lines of stream-json output: events, with broken lines among them. */
export const streamText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { arbitrary: streamEvent.map((event) => JSON.stringify(event)), weight: 5 },
      { arbitrary: noise, weight: 1 },
    ),
    { maxLength: 12 },
  )
  .map((lines) => lines.join("\n"));

const claudeStreamTarget: FuzzTarget<string> = {
  name: "parseClaudeStream",
  inputs: streamText,
  describe: preview,
  check: (text) => {
    const run = parseClaudeStream(text);
    if (run.malformedLines > text.split(/\r?\n/).length) fail("more malformed lines than lines");
    const parser = createClaudeStreamParser();
    for (const line of text.split(/\r?\n/)) parser.push(line);
    if (!isDeepStrictEqual(parser.finish(), run))
      fail("pushing lines differs from parsing the text");
  },
};

const transcriptTarget: FuzzTarget<{ jsonl: string; fromLine: number }> = {
  name: "transcriptSince",
  inputs: fc.record({ jsonl: streamText, fromLine: fc.integer({ min: -2, max: 20 }) }),
  describe: (input) => `${preview(input.jsonl)} from ${input.fromLine}`,
  check: ({ jsonl, fromLine }) => {
    const since = transcriptSince(jsonl, fromLine);
    if (!Number.isInteger(since.lines) || since.lines < 0) fail("a line count that is not a count");
    const edited = countEditedFiles(since.recent);
    if (!Number.isInteger(edited) || edited < 0) fail("an edited-file count that is not a count");
    if (edited > countEditedFiles(jsonl)) fail("more files edited since than in all");
  },
};

const decisionEventTarget: FuzzTarget<string> = {
  name: "parseDecisionEvent",
  inputs: fc.oneof(
    streamText,
    fc
      .record(
        {
          terminal_id: fc.constantFrom("t1", "../x", "", "__proto__"),
          event: fc.constantFrom(
            "iteration_start",
            "iteration_end",
            "loop_exit",
            "error",
            "verification",
            "__proto__",
            "constructor",
            "nope",
          ),
          timestamp: fc.constantFrom("2026-12-01T15:00:00.000Z", "yesterday", ""),
          payload: fc.oneof(
            fc.jsonValue({ maxDepth: 2 }),
            fc.record({
              iteration: fc.integer({ min: -1, max: 3 }),
              reason: fc.string({ maxLength: 4 }),
            }),
          ),
        },
        { requiredKeys: [] },
      )
      .map((event) => JSON.stringify(event)),
  ),
  describe: preview,
  check: (line) => {
    const parsed = parseDecisionEvent(line, { line: 7 });
    if (parsed.ok) return;
    if (parsed.problems.length === 0 || parsed.problem !== parsed.problems[0])
      fail("problem is not the first problem");
    if (parsed.problem.line !== 7) fail("the problem is not on the given line");
  },
};

/** Every fuzz target, in the order `pnpm fuzz` runs them. */
export const FUZZ_TARGETS: readonly FuzzTarget<unknown>[] = [
  parsePlanTarget,
  updatePlanTarget,
  parsePrdTarget,
  updatePrdTarget,
  parseConfigTarget,
  analyzeResponseTarget,
  parseStatusBlockTarget,
  claudeStreamTarget,
  transcriptTarget,
  decisionEventTarget,
] as readonly FuzzTarget<unknown>[];

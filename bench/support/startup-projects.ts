import { execFileSync, spawnSync } from "node:child_process";
import {
  appendFileSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { realisticPlan } from "./realistic-plan.js";

// The projects the start-up bench runs `loop status` and `loop hook stop` in, set up as a user's
// are: a real git repository scaffolded by `loop init`, the default state location, state
// written by the commands themselves (`loop run`, the hook's first stop), Claude Code's recorded
// hook input and transcript.

const fixtures = (name: string) =>
  fileURLToPath(new URL(`../../test/fixtures/hook/${name}`, import.meta.url));

/** An agent that reads its prompt and answers without changing anything. */
const IDLE_AGENT = `for await (const _ of process.stdin);
console.log("I looked at the task and will get to it.");
`;

/** A throwaway project the bench runs `loop` in. */
export interface BenchProject {
  /** The project folder (the command's working directory). */
  readonly dir: string;
  /** The environment of `loop`: PATH, a HOME of its own, a fixed terminal id, NO_COLOR. */
  readonly env: Record<string, string>;
  /** Deletes the folder. */
  remove(): void;
}

function git(dir: string, env: Record<string, string>, ...args: string[]): void {
  const identity = ["-c", "user.name=Loop Bench", "-c", "user.email=bench@example.test"];
  execFileSync("git", [...identity, ...args], { cwd: dir, env, stdio: "ignore" });
}

/**
 * A git repository with `files` and what `loop init` scaffolds (its config, the config's
 * schema, .gitignore; `files` keep their text), committed.
 */
function createProject(bin: string, files: Readonly<Record<string, string>>): BenchProject {
  const dir = mkdtempSync(join(tmpdir(), "loop-startup-"));
  const home = join(dir, ".home");
  mkdirSync(home);
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    LOOP_TERMINAL_ID: "bench",
    NO_COLOR: "1",
  };
  git(dir, env, "init", "-q", "-b", "main");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  execFileSync(process.execPath, [bin, "init"], { cwd: dir, env, stdio: "ignore" });
  git(dir, env, "add", "-A");
  git(dir, env, "commit", "-q", "-m", "initial");
  return { dir, env, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A project whose `plan.md` is a realistic plan of `taskCount` tasks, after two iterations of
 * `loop run` with an agent that changes nothing: `loop status` then has a state, metrics,
 * `status.json`, decision events and the plan to read.
 *
 * @param bin - the built `loop` binary.
 * @param taskCount - the plan's size.
 */
export function createStatusProject(bin: string, taskCount: number): BenchProject {
  const project = createProject(bin, {
    "plan.md": realisticPlan(taskCount),
    "agent.mjs": IDLE_AGENT,
  });
  const run = spawnSync(
    process.execPath,
    [bin, "run", "--cmd", "node agent.mjs", "--max-iterations", "2"],
    { cwd: project.dir, env: project.env, encoding: "utf8" },
  );
  // Exit code 3: stopped before complete (max_iterations), as asked.
  if (run.status !== 3) throw new Error(`loop run exited ${run.status}: ${run.stderr}`);
  return project;
}

/** The state file of the ralph-loop skill that the Stop-hook project starts from. */
const RALPH_STATE = ".claude/ralph-loop.local.md";
const PRD = ".claude/plugin/ralph/prd.json";
/** The default state root, relative to the project. */
const STATE_DIR = ".claude/loop/state";

/**
 * A prd.json of `storyCount` stories shaped like the skill's: acceptance criteria, a
 * verification command, each story depending on the one before, the first tenth passing.
 */
export function benchPrd(storyCount: number): string {
  const stories = Array.from({ length: storyCount }, (_, index) => ({
    id: `S${index + 1}`,
    title: `Endpoint ${index + 1} of the inventory service`,
    description: `Serve GET /inventory/${index + 1} from the store, validated against the schema.`,
    acceptanceCriteria: [`GET /inventory/${index + 1} returns the item`, "A missing item is a 404"],
    dependencies: index === 0 ? [] : [`S${index}`],
    verification: `npm test -- inventory-${index + 1}`,
    passes: index < storyCount / 10,
  }));
  const completedStories = stories.filter((story) => story.passes).length;
  return `${JSON.stringify({ project: "inventory", stories, completedStories }, null, 2)}\n`;
}

/**
 * What the agent wrote in the transcript between the first stop and the measured one: it edits
 * a file, the tool answers, and it says what it did (the hook reads that answer).
 */
function iterationTurns(dir: string): string {
  const session = "8f2c7a1e-4b3d-4e5f-9a6b-1c2d3e4f5a6b";
  const turn = (index: number, message: Record<string, unknown>) => ({
    parentUuid: `00000000-0000-4000-8000-00000000010${index - 1}`,
    isSidechain: false,
    userType: "external",
    cwd: dir,
    sessionId: session,
    type: message.role,
    uuid: `00000000-0000-4000-8000-00000000010${index}`,
    timestamp: `2026-11-29T20:1${index}:00.000Z`,
    message,
  });
  const turns = [
    turn(1, {
      role: "assistant",
      content: [
        { type: "text", text: "Working on S101: the GET /inventory/101 endpoint." },
        {
          type: "tool_use",
          id: "toolu_101",
          name: "Edit",
          input: { file_path: join(dir, "src/inventory.ts") },
        },
      ],
    }),
    turn(2, {
      role: "user",
      content: [
        { tool_use_id: "toolu_101", type: "tool_result", content: "The file has been updated." },
      ],
    }),
    turn(3, {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "I implemented GET /inventory/101 and added its tests; `npm test -- inventory-101` passes. S101 is done, and I marked it as passing in prd.json. Next is S102.",
        },
      ],
    }),
  ];
  return turns.map((entry) => `${JSON.stringify(entry)}\n`).join("");
}

/** A Stop-hook project: what `loop hook stop` decides on, and the input Claude Code gives it. */
export interface StopHookProject extends BenchProject {
  /** The hook's JSON for standard input, as Claude Code passes it. */
  readonly input: string;
  /**
   * Puts the ralph-loop state file and the loop state back as the first stop left them, so every
   * measured stop is the second one: it reads a previous state and the agent's answer since,
   * blocks with the same story and writes both files.
   */
  reset(): void;
}

/**
 * A project running the ralph-loop skill over a prd.json of `storyCount` stories, with the
 * recorded transcript and Stop input of the hook tests, after its first stop.
 *
 * @param bin - the built `loop` binary.
 * @param storyCount - the prd.json's size.
 */
export function createStopHookProject(bin: string, storyCount: number): StopHookProject {
  const ralphState = readFileSync(fixtures("ralph-loop.local.md"), "utf8").replace(
    "max_iterations: 20",
    "max_iterations: 100000",
  );
  const project = createProject(bin, { [RALPH_STATE]: ralphState, [PRD]: benchPrd(storyCount) });
  copyFileSync(fixtures("transcript.jsonl"), join(project.dir, "transcript.jsonl"));
  const recorded = JSON.parse(readFileSync(fixtures("stop-input.json"), "utf8"));
  const input = JSON.stringify({
    ...recorded,
    cwd: project.dir,
    transcript_path: join(project.dir, "transcript.jsonl"),
  });
  const stop = () =>
    execFileSync(process.execPath, [bin, "hook", "stop"], {
      cwd: project.dir,
      env: project.env,
      input,
    }).toString();
  if (!stop().includes('"decision":"block"')) throw new Error("the first stop did not block");
  const at = (path: string) => join(project.dir, path);
  appendFileSync(at("transcript.jsonl"), iterationTurns(project.dir));
  const afterFirst = readFileSync(at(RALPH_STATE), "utf8");
  cpSync(at(STATE_DIR), at(".state-after-first-stop"), { recursive: true });
  const reset = () => {
    writeFileSync(at(RALPH_STATE), afterFirst);
    rmSync(at(STATE_DIR), { recursive: true, force: true });
    cpSync(at(".state-after-first-stop"), at(STATE_DIR), { recursive: true });
  };
  return { ...project, input, reset };
}

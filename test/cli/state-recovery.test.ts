import { readFileSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { initGitRepository } from "../support/git-repository.js";
import { createTestProject, type TestProject } from "./support.js";

// A corrupt loop_state.json with a valid backup: the loop recovers it once, when it starts,
// and logs it; `loop status` and `loop monitor` only look, never swapping the files.

const PLAN =
  "# Plan\n\n## Tasks\n- [ ] TASK-001 Parser\n- [ ] TASK-002 Printer\n- [ ] TASK-003 Docs\n";

/** An agent that answers and changes nothing. */
const IDLE_AGENT =
  'for await (const _ of process.stdin);\nconsole.log("Still reading the code.");\n';

let project: TestProject;
beforeEach(async () => {
  project = await createTestProject();
  await initGitRepository(project.dir, { "plan.md": PLAN }, project.env);
  await writeFile(join(project.dir, "agent.mjs"), IDLE_AGENT);
});
afterEach(async () => {
  await project.remove();
});

const stateFile = () => join(project.stateDir, "terminals", "test-terminal", "loop_state.json");
const run = (maxIterations: number) =>
  project.run([
    "run",
    "--cmd",
    `${process.execPath} agent.mjs`,
    "--max-iterations",
    String(maxIterations),
  ]);
const files = () => [readFileSync(stateFile(), "utf8"), readFileSync(`${stateFile()}.bak`, "utf8")];

const CORRUPTIONS: Readonly<Record<string, (text: string) => string>> = {
  truncated: (text) => text.slice(0, Math.floor(text.length / 2)),
  empty: () => "",
  null: () => "null",
  "wrong schema": () => JSON.stringify({ completion_indicators: "two" }),
};

describe("a corrupt loop_state.json with a valid backup", { timeout: 120_000 }, () => {
  for (const [name, corrupt] of Object.entries(CORRUPTIONS)) {
    it(`${name}: status and monitor leave both files as they are; loop run resumes from the backup`, async () => {
      await run(2);
      const backup = JSON.parse(readFileSync(`${stateFile()}.bak`, "utf8"));
      writeFileSync(stateFile(), corrupt(readFileSync(stateFile(), "utf8")));
      const before = files();

      await project.run(["status"]);
      await project.run(["monitor", "--once"]);
      expect(files()).toEqual(before);

      const resumed = await run(backup.loop_metadata.iterations + 2);
      expect(resumed.stderr).toContain(`iteration ${backup.loop_metadata.iterations + 1}:`);
      const state = JSON.parse(readFileSync(stateFile(), "utf8"));
      expect(state.loop_metadata.iterations).toBe(backup.loop_metadata.iterations + 2);
      // Not a fresh state: the backup's start, and its attempts counted on (TASK-001 given up).
      expect(state.loop_metadata.started_at).toBe(backup.loop_metadata.started_at);
      expect(state.failed_tasks).toEqual(["TASK-001"]);
      const log = readFileSync(
        join(project.dir, ".claude", "loop", "logs", "decision.log"),
        "utf8",
      );
      expect(log.match(/"event":"state_recovered"/g)).toHaveLength(1);
    });
  }
});

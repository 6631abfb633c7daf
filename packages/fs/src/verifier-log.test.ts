import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { extractUserConcerns, parsePlan, verifyCompletion } from "@loop/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LogWriteError } from "./log-write-error.js";
import { createVerifierLog } from "./verifier-log.js";

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "loop-verifier-log-"));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const plan = `# Auth

## Tasks
- [x] TASK-001 Users can log in with email and password
- [x] TASK-002 Add a health check endpoint

## Acceptance Criteria
- [ ] Users can log in with their email and password
- [ ] Passwords are hashed with bcrypt
`;

/** A verification of `plan`, with one user concern. */
function verification() {
  const { tasks, requirements } = parsePlan(plan);
  return verifyCompletion({
    completedTasks: tasks.filter((task) => task.done),
    requirements,
    concerns: extractUserConcerns([{ role: "user", text: "The login page is not working." }]),
  });
}

describe("createVerifierLog", () => {
  it("checks its options before doing anything", () => {
    expect(() => createVerifierLog(undefined as never)).toThrow(
      "createVerifierLog: Missing required option `path`",
    );
    expect(() => createVerifierLog({ path: "verifier.log", maxBytes: -1 })).toThrow("`maxBytes`");
  });

  it("appends one JSON line per verification, creating parent folders", async () => {
    const path = join(directory, ".claude", "loop", "logs", "verifier.log");
    const verifierLog = createVerifierLog({ path });
    expect(verifierLog.path).toBe(path);
    const result = verification();
    await verifierLog.log({ terminalId: "term_001", result, timestamp: "2026-03-14T10:05:31Z" });
    await verifierLog.log({
      terminalId: "term_001",
      result,
      timestamp: new Date("2026-03-14T10:10:45Z"),
    });
    const lines = (await readFile(path, "utf8")).split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("");
    const first = JSON.parse(lines[0] ?? "");
    expect(Object.keys(first)).toEqual([
      "timestamp",
      "terminal_id",
      "passed",
      "matches",
      "unmet",
      "concerns",
    ]);
    expect(first).toEqual({
      timestamp: "2026-03-14T10:05:31Z",
      terminal_id: "term_001",
      passed: false,
      matches: [
        {
          requirement: "Users can log in with their email and password",
          section: "Acceptance Criteria",
          task: "TASK-001",
          tasks: ["TASK-001"],
          score: expect.any(Number),
          met: true,
        },
        {
          requirement: "Passwords are hashed with bcrypt",
          section: "Acceptance Criteria",
          task: expect.toSatisfy((task: unknown) => task === null || typeof task === "string"),
          tasks: expect.any(Array),
          score: expect.any(Number),
          met: false,
        },
      ],
      unmet: ["Passwords are hashed with bcrypt"],
      concerns: [{ kind: "issue", text: "The login page is not working.", phrase: "not working" }],
    });
    expect(first.matches[0].score).toBe(result.matches[0]?.score);
    expect(JSON.parse(lines[1] ?? "").timestamp).toBe("2026-03-14T10:10:45.000Z");
  });

  it("stamps the current time when the entry has none", async () => {
    const path = join(directory, "verifier.log");
    const before = Date.now();
    await createVerifierLog({ path }).log({ terminalId: "term_002", result: verification() });
    const { timestamp } = JSON.parse(await readFile(path, "utf8"));
    expect(Date.parse(timestamp)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(timestamp)).toBeLessThanOrEqual(Date.now() + 1);
  });

  it("rotates like the decision log", async () => {
    const path = join(directory, "verifier.log");
    const verifierLog = createVerifierLog({ path, maxBytes: 100, keep: 2 });
    for (let index = 0; index < 4; index += 1) {
      await verifierLog.log({ terminalId: `term_${index}`, result: verification() });
    }
    expect((await readdir(directory)).sort()).toEqual([
      "verifier.log",
      "verifier.log.1",
      "verifier.log.2",
    ]);
    expect(JSON.parse(await readFile(path, "utf8")).terminal_id).toBe("term_3");
    expect(JSON.parse(await readFile(`${path}.2`, "utf8")).terminal_id).toBe("term_1");
  });

  it("rejects with a LogWriteError when it cannot write", async () => {
    await writeFile(join(directory, "logs"), "a file");
    const verifierLog = createVerifierLog({ path: join(directory, "logs", "verifier.log") });
    const failure = await verifierLog
      .log({ terminalId: "term_001", result: verification() })
      .catch((error: unknown) => error);
    expect(LogWriteError.isInstance(failure)).toBe(true);
    await verifierLog.close();
    await expect(
      verifierLog.log({ terminalId: "term_001", result: verification() }),
    ).rejects.toThrow("the log is closed");
  });

  it("rejects an entry without a result instead of writing half a line", async () => {
    const path = join(directory, "verifier.log");
    const verifierLog = createVerifierLog({ path });
    await expect(verifierLog.log({ terminalId: "term_001" } as never)).rejects.toThrow(TypeError);
    await verifierLog.flush();
    expect(await readdir(directory)).toEqual([]);
  });
});

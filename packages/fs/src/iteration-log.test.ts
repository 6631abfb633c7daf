import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { ExecutionResult } from "@loop/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createIterationLog, DEFAULT_ITERATION_LOG_KEEP } from "./iteration-log.js";
import type { IterationLogEntry } from "./iteration-log-entry.js";
import { listIterationLogs, listIterationLogTerminals } from "./iteration-log-files.js";
import { LogWriteError } from "./log-write-error.js";

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "loop-iteration-log-"));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** 2026-03-14T10:00:00Z, and `seconds` later. */
const at = (seconds = 0) => Date.UTC(2026, 2, 14, 10, 0, seconds);

const STREAM = [
  '{"type":"system","subtype":"init","session_id":"s1"}',
  '{"type":"assistant","message":{"content":[{"type":"text","text":"Done."}]}}',
  '{"type":"result","subtype":"success","is_error":false,"result":"Done.","total_cost_usd":0.12}',
  "",
].join("\n");

function entry(overrides: Partial<IterationLogEntry> = {}): IterationLogEntry {
  const result: ExecutionResult = {
    output: "Done.",
    success: true,
    costUsd: 0.12,
    tokens: { input: 1200, output: 340 },
    filesChanged: 3,
    raw: STREAM,
  };
  return {
    iteration: 12,
    kind: "task",
    taskId: "TASK-003",
    attempt: 1,
    startedAt: at(0),
    endedAt: at(151),
    result,
    tasksCompleted: ["TASK-003"],
    decision: { exit: false, reason: null },
    ...overrides,
  };
}

const terminalFolder = () => join(folder, "term_001");

describe("createIterationLog", () => {
  it("checks its options before doing anything", () => {
    expect(() => createIterationLog(undefined as never)).toThrow(
      "createIterationLog: Missing required option `folder`",
    );
    expect(() => createIterationLog({ folder } as never)).toThrow(
      "createIterationLog: Missing required option `terminalId`",
    );
    expect(() => createIterationLog({ folder, terminalId: "../etc" })).toThrow(
      'option `terminalId` must be a safe terminal id (1 to 64 of A-Z a-z 0-9 . _ -, not starting with .), got "../etc"',
    );
    expect(() => createIterationLog({ folder, terminalId: "t", keep: 1.5 })).toThrow(
      "option `keep` must be a whole number of files, 0 or more, got 1.5",
    );
    expect(createIterationLog({ folder, terminalId: "t" }).keep).toBe(DEFAULT_ITERATION_LOG_KEEP);
  });

  it("writes one file per iteration in the terminal's folder: a header, then the raw output", async () => {
    const log = createIterationLog({ folder, terminalId: "term_001" });
    const path = await log.write(entry());
    expect(path).toBe(join(terminalFolder(), "20260314T100000Z-000012-TASK-003.log"));
    expect(await readFile(path ?? "", "utf8")).toBe(
      [
        "# loop iteration log v1",
        "iteration: 12",
        "kind: task",
        "task: TASK-003",
        "attempt: 1",
        "terminal: term_001",
        "started_at: 2026-03-14T10:00:00.000Z",
        "ended_at: 2026-03-14T10:02:31.000Z",
        "duration_s: 151.0",
        "success: true",
        "decision: continue",
        "cost_usd: 0.12",
        "tokens: 1200 in, 340 out",
        "files_changed: 3",
        "tasks_completed: TASK-003",
        "error: none",
        "output: raw",
        "--- output ---",
        STREAM,
      ].join("\n"),
    );
  });

  it("shows a failure in the header on one line, and unknowns as unknown", async () => {
    const log = createIterationLog({ folder, terminalId: "term_001" });
    const path = await log.write(
      entry({
        kind: "wrap_up",
        taskId: null,
        decision: { exit: true, reason: "circuit_open" },
        tasksCompleted: [],
        result: { output: "", success: false, error: "exited with code 1: boom\nat line 2" },
      }),
    );
    expect(path?.endsWith("-000012-wrap-up.log")).toBe(true);
    const text = await readFile(path ?? "", "utf8");
    expect(text).toContain("\ntask: none\n");
    expect(text).toContain("\nsuccess: false\ndecision: exit circuit_open\n");
    expect(text).toContain("\ncost_usd: unknown\ntokens: unknown\nfiles_changed: unknown\n");
    expect(text).toContain(
      "\ntasks_completed: none\nerror: exited with code 1: boom\\nat line 2\n",
    );
    // Without a raw output the answer is logged, and the header says so.
    expect(text.endsWith("\noutput: answer\n--- output ---\n")).toBe(true);
  });

  it("names a file with a task id safe for any file system, and keeps the id whole in the header", async () => {
    const log = createIterationLog({ folder, terminalId: "term_001" });
    const taskId = "fix the/login bug:now";
    const path = await log.write(entry({ taskId }));
    expect(path).toBe(join(terminalFolder(), "20260314T100000Z-000012-fix_the_login_bug_now.log"));
    const [listed] = await listIterationLogs({ folder, terminalId: "term_001" });
    expect(listed?.taskId).toBe(taskId);
  });

  it("keeps the newest `keep` logs and deletes the older ones, leaving other files alone", async () => {
    const log = createIterationLog({ folder, terminalId: "term_001", keep: 3 });
    await mkdir(terminalFolder(), { recursive: true });
    await writeFile(join(terminalFolder(), "notes.txt"), "mine");
    for (let iteration = 1; iteration <= 5; iteration += 1) {
      await log.write(
        entry({ iteration, startedAt: at(iteration * 10), endedAt: at(iteration * 10 + 5) }),
      );
    }
    expect((await readdir(terminalFolder())).sort()).toEqual([
      "20260314T100030Z-000003-TASK-003.log",
      "20260314T100040Z-000004-TASK-003.log",
      "20260314T100050Z-000005-TASK-003.log",
      "notes.txt",
    ]);
  });

  it("keeps the newest `keep` over many writes, whatever else came and went in the folder meanwhile", async () => {
    const keep = 4;
    const log = createIterationLog({ folder, terminalId: "term_001", keep });
    const written: string[] = [];
    const write = async (iteration: number) => {
      const path = await log.write(
        entry({ iteration, startedAt: at(iteration * 10), endedAt: at(iteration * 10 + 5) }),
      );
      written[iteration] = basename(path ?? "");
    };
    const names = async () => (await readdir(terminalFolder())).sort();
    for (let iteration = 1; iteration <= 6; iteration += 1) await write(iteration);
    // One of the kept logs deleted by hand: the writes go on, and keep the newest that are left.
    await rm(join(terminalFolder(), written[5] as string));
    await write(7);
    expect(await names()).toEqual([written[4], written[6], written[7]]);
    // An older log put back from elsewhere is counted, and pruned, within `keep` writes.
    await writeFile(join(terminalFolder(), written[1] as string), "old");
    for (let iteration = 8; iteration < 8 + keep; iteration += 1) await write(iteration);
    expect(await names()).toEqual(written.slice(8, 8 + keep));
  });

  it("removes the temporary files crashed writers left of any log, sparing live writers' and other files'", async () => {
    const log = createIterationLog({ folder, terminalId: "term_001" });
    await mkdir(terminalFolder(), { recursive: true });
    const exited = spawnSync(process.execPath, ["-e", ""]).pid;
    if (exited === undefined) throw new Error("could not start a child process");
    // A log written by a loop killed mid-write: a name this process never writes.
    const crashed = `.20260314T095900Z-000007-TASK-002.log.${exited}.0123456789ab.tmp`;
    const live = `.20260314T095910Z-000008-TASK-002.log.${process.pid}.0123456789ab.tmp`;
    const otherFile = `.notes.txt.${exited}.0123456789ab.tmp`;
    for (const name of [crashed, live, otherFile]) {
      await writeFile(join(terminalFolder(), name), "torn");
    }
    await log.write(entry());
    expect((await readdir(terminalFolder())).sort()).toEqual(
      [live, otherFile, "20260314T100000Z-000012-TASK-003.log"].sort(),
    );
  });

  it("keeps a count that starts again (the state was deleted) as the newest", async () => {
    const log = createIterationLog({ folder, terminalId: "term_001", keep: 2 });
    await log.write(entry({ iteration: 40, startedAt: at(0), endedAt: at(1) }));
    await log.write(entry({ iteration: 41, startedAt: at(10), endedAt: at(11) }));
    await log.write(entry({ iteration: 1, startedAt: at(20), endedAt: at(21) }));
    const logs = await listIterationLogs({ folder, terminalId: "term_001" });
    expect(logs.map((file) => file.iteration)).toEqual([41, 1]);
  });

  it("writes nothing with keep 0", async () => {
    const log = createIterationLog({ folder, terminalId: "term_001", keep: 0 });
    expect(await log.write(entry())).toBeNull();
    expect(await readdir(folder)).toEqual([]);
  });

  it("rejects with a LogWriteError naming the file when it cannot write, and goes on", async () => {
    const blocked = join(folder, "blocked");
    await writeFile(blocked, "a file where the folder should be");
    const log = createIterationLog({ folder: blocked, terminalId: "term_001" });
    const failure = await log.write(entry()).catch((error: unknown) => error);
    expect(LogWriteError.isInstance(failure)).toBe(true);
    expect((failure as LogWriteError).path).toBe(
      join(blocked, "term_001", "20260314T100000Z-000012-TASK-003.log"),
    );
    await expect(log.write(entry({ iteration: 0 }))).rejects.toThrow(
      "IterationLog.write: `iteration` must be a whole number from 1, got 0",
    );
  });
});

describe("listIterationLogs", () => {
  it("lists a terminal's logs oldest first, with what their headers say", async () => {
    const log = createIterationLog({ folder, terminalId: "term_001" });
    await log.write(entry({ iteration: 1, taskId: "TASK-001", startedAt: at(0), endedAt: at(9) }));
    await log.write(
      entry({
        iteration: 2,
        taskId: "TASK-002",
        startedAt: at(10),
        endedAt: at(19),
        result: { output: "", success: false, error: "killed by SIGTERM" },
      }),
    );
    const logs = await listIterationLogs({ folder, terminalId: "term_001" });
    expect(logs).toEqual([
      {
        path: join(terminalFolder(), "20260314T100000Z-000001-TASK-001.log"),
        name: "20260314T100000Z-000001-TASK-001.log",
        terminalId: "term_001",
        iteration: 1,
        kind: "task",
        taskId: "TASK-001",
        startedAt: at(0),
        endedAt: at(9),
        success: true,
        costUsd: 0.12,
        error: null,
      },
      expect.objectContaining({
        iteration: 2,
        taskId: "TASK-002",
        success: false,
        costUsd: null,
        error: "killed by SIGTERM",
      }),
    ]);
  });

  it("has none for a terminal without logs, and lists the terminals that have a folder", async () => {
    expect(await listIterationLogs({ folder: join(folder, "missing"), terminalId: "t" })).toEqual(
      [],
    );
    expect(await listIterationLogTerminals(join(folder, "missing"))).toEqual([]);
    await createIterationLog({ folder, terminalId: "tmux-_2" }).write(entry());
    await createIterationLog({ folder, terminalId: "kitty-1" }).write(entry());
    await writeFile(join(folder, "stray.log"), "");
    expect(await listIterationLogTerminals(folder)).toEqual(["kitty-1", "tmux-_2"]);
  });

  it("still lists a log whose header was damaged, from its name", async () => {
    await mkdir(terminalFolder(), { recursive: true });
    await writeFile(join(terminalFolder(), "20260314T100000Z-000007-TASK-009.log"), "garbage");
    expect(await listIterationLogs({ folder, terminalId: "term_001" })).toEqual([
      expect.objectContaining({
        iteration: 7,
        taskId: "TASK-009",
        startedAt: at(0),
        endedAt: null,
        success: null,
      }),
    ]);
  });
});

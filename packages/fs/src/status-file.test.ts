import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createStatusFile } from "./status-file.js";
import { StatusFileError } from "./status-file-error.js";
import type { Status } from "./status-file-schema.js";

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "loop-status-file-"));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** The seed's example status (ralph_loop.sh). */
const seedStatus: Status = {
  timestamp: "2025-09-30T12:00:00-04:00",
  loop_count: 5,
  calls_made_this_hour: 42,
  max_calls_per_hour: 100,
  last_action: "executing",
  status: "running",
  exit_reason: "",
  next_reset: "13:00:00",
};

describe("createStatusFile", () => {
  it("checks its options before doing anything", () => {
    expect(() => createStatusFile(undefined as never)).toThrow(
      "createStatusFile: Missing required option `path`",
    );
    expect(() => createStatusFile({ path: 7 } as never)).toThrow("must be a non-empty string");
  });

  it("writes ralph_loop.sh's status.json, fields in its order, as indented JSON", async () => {
    const path = join(directory, "status.json");
    const statusFile = createStatusFile({ path });
    expect(statusFile.path).toBe(path);
    await statusFile.write({
      next_reset: "13:00:00",
      exit_reason: "",
      status: "running",
      last_action: "executing",
      max_calls_per_hour: 100,
      calls_made_this_hour: 42,
      loop_count: 5,
      timestamp: "2025-09-30T12:00:00-04:00",
    });
    expect(await readFile(path, "utf8")).toBe(
      [
        "{",
        '  "timestamp": "2025-09-30T12:00:00-04:00",',
        '  "loop_count": 5,',
        '  "calls_made_this_hour": 42,',
        '  "max_calls_per_hour": 100,',
        '  "last_action": "executing",',
        '  "status": "running",',
        '  "exit_reason": "",',
        '  "next_reset": "13:00:00"',
        "}",
        "",
      ].join("\n"),
    );
    expect(await statusFile.read()).toEqual(seedStatus);
  });

  it("writes and reads the optional fields", async () => {
    const statusFile = createStatusFile({ path: join(directory, "status.json") });
    const status: Status = {
      ...seedStatus,
      timestamp: "2026-03-14T10:00:00.123Z",
      status: "paused",
      last_action: "api_limit_wait",
      current_task: "TASK-003",
      tasks_done: 2,
      tasks_total: 5,
      cost_usd: 1.25,
      wait_until: "2026-03-14T11:00:00Z",
    };
    await statusFile.write(status);
    expect(await statusFile.read()).toEqual(status);
    await statusFile.write({ ...seedStatus, current_task: null, wait_until: null });
    expect(await statusFile.read()).toEqual({
      ...seedStatus,
      current_task: null,
      wait_until: null,
    });
  });

  it("replaces the file atomically, creating parent folders, leaving no temporary file", async () => {
    const folder = join(directory, ".claude", "loop");
    const statusFile = createStatusFile({ path: join(folder, "status.json") });
    await Promise.all(
      Array.from({ length: 20 }, (_, loopCount) =>
        statusFile.write({ ...seedStatus, loop_count: loopCount }),
      ),
    );
    expect(await readdir(folder)).toEqual(["status.json"]);
    expect(await statusFile.read()).toEqual({ ...seedStatus, loop_count: 19 });
  });

  it("rejects an invalid status with every problem, writing nothing", async () => {
    const path = join(directory, "status.json");
    const statusFile = createStatusFile({ path });
    const invalid = {
      ...seedStatus,
      timestamp: "yesterday",
      loop_count: -1,
      calls_made_this_hour: 1.5,
      loop_cont: 3,
    } as Status;
    const failure = await statusFile.write(invalid).catch((error: unknown) => error);
    expect(StatusFileError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: "STATUS_FILE_ERROR", file: path });
    const message = (failure as Error).message;
    expect(message).toContain("Invalid status (4 problems)");
    expect(message).toContain(`${path} timestamp:`);
    expect(message).toContain(`${path} loop_count:`);
    expect(message).toContain(`${path} calls_made_this_hour:`);
    expect(message).toContain("loop_cont");
    expect(await readdir(directory)).toEqual([]);
    const missing = { ...seedStatus } as Partial<Status>;
    delete missing.next_reset;
    await expect(statusFile.write(missing as Status)).rejects.toThrow("next_reset");
  });

  it("reads null when there is no status file", async () => {
    expect(await createStatusFile({ path: join(directory, "status.json") }).read()).toBeNull();
  });

  it("reads a file ralph_loop.sh wrote (4-space indent), keeping fields it does not know", async () => {
    const path = join(directory, "status.json");
    await writeFile(
      path,
      `{\n    "timestamp": "2025-09-30T12:00:00-04:00",\n    "loop_count": 5,\n    "calls_made_this_hour": 42,\n    "max_calls_per_hour": 100,\n    "last_action": "executing",\n    "status": "running",\n    "exit_reason": "",\n    "next_reset": "13:00:00",\n    "session_id": "abc"\n}\n`,
    );
    expect(await createStatusFile({ path }).read()).toEqual({ ...seedStatus, session_id: "abc" });
  });

  it("reports a file that is not JSON at its line and column", async () => {
    const path = join(directory, "status.json");
    await writeFile(path, '{\n  "loop_count": 5,\n  oops\n}\n');
    const failure = await createStatusFile({ path })
      .read()
      .catch((error: unknown) => error);
    expect(StatusFileError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toMatch(new RegExp(`${path}:3:3 not JSON`));
  });

  it("reports a JSON file that is not a status", async () => {
    const path = join(directory, "status.json");
    await writeFile(path, JSON.stringify({ ...seedStatus, loop_count: "five" }));
    await expect(createStatusFile({ path }).read()).rejects.toThrow(
      `${path} loop_count: Invalid input: expected number, received string`,
    );
  });
});

import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestProject, LOOP_BIN, type TestProject } from "./support.js";

// Which files `loop run` flushes to the disk (docs/state-and-logs.md#durability), seen in the
// system calls of a real run under strace: loop_state.json is `fsync`ed, file and folder, before
// and after every rename that replaces it; status.json, the iteration logs and loop_metrics.json
// are replaced atomically (a temporary file renamed over them) but never `fsync`ed. Skipped where
// strace cannot trace (not installed, or ptrace refused).

const straceWorks =
  process.platform === "linux" &&
  spawnSync("strace", ["-f", "-qq", "-e", "trace=none", "true"], { stdio: "ignore" }).status === 0;

const TASKS = 3;
const STUB = `grep -q '^- \\[ \\]' plan.md || exit 0\nexec sed -i '0,/^- \\[ \\]/s//- [x]/' plan.md\n`;

let project: TestProject;
/** The project's environment without LOOP_STATE_DIR: the state in its default place, `.claude/loop/state`. */
let env: Record<string, string>;

beforeEach(async () => {
  project = await createTestProject();
  const { LOOP_STATE_DIR: _stateDir, ...rest } = project.env;
  env = rest;
  const items = Array.from({ length: TASKS }, (_, index) => `- [ ] TASK-${index + 1} Part`);
  await writeFile(join(project.dir, "plan.md"), `# Plan\n\n## Tasks\n\n${items.join("\n")}\n`);
  await writeFile(join(project.dir, "stub.sh"), STUB);
  // A repository, as the loop's progress probe expects: the wrap-up then ends the run.
  for (const args of [
    ["init", "-q"],
    ["-c", "user.email=t@example.com", "-c", "user.name=t", "add", "."],
    ["-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "plan"],
  ]) {
    const git = spawnSync("git", args, { cwd: project.dir, env, encoding: "utf8" });
    if (git.status !== 0) throw new Error(`git ${args.join(" ")}: ${git.stderr}`);
  }
});

afterEach(async () => {
  await project.remove();
});

/** One traced call of the loop's own process (not of git or the agent). */
interface Call {
  readonly name: "fsync" | "rename";
  /** fsync: the file or folder flushed; rename: the source. */
  readonly path: string;
  /** rename: the destination. */
  readonly to?: string;
}

/** The loop's own fsyncs and renames, in order, from an `strace -f -y` log. */
function loopCalls(trace: string): Call[] {
  const calls: Call[] = [];
  const pending = new Map<string, string>();
  const programs = new Set<string>();
  let loop: string | null = null;
  for (const raw of trace.split("\n")) {
    const match = /^(\d+)\s+(.*)$/.exec(raw);
    if (match === null) continue;
    const [, pid = "", rest = ""] = match;
    loop ??= pid;
    let line = rest;
    if (line.endsWith("<unfinished ...>")) {
      // `rename("a", "b" <unfinished ...>`: the call goes on in a later `<... rename resumed>`.
      pending.set(pid, line.slice(0, -"<unfinished ...>".length).trimEnd());
      continue;
    }
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(line);
    if (resumed !== null) {
      line = (pending.get(pid) ?? "") + (resumed[1] ?? "");
      pending.delete(pid);
    }
    if (!/\)\s+= 0$/.test(line)) continue;
    if (line.startsWith("execve(")) {
      if (pid !== loop) programs.add(pid);
      continue;
    }
    if (programs.has(pid)) continue;
    const sync = /^f(?:data)?sync\(\d+<([^>]*)>/.exec(line);
    if (sync !== null) calls.push({ name: "fsync", path: sync[1] ?? "" });
    const rename = /^rename(?:at2?)?\(.*?"([^"]*)".*?"([^"]*)"(?:, \w+)?\)\s+= 0$/.exec(line);
    if (rename !== null) calls.push({ name: "rename", path: rename[1] ?? "", to: rename[2] ?? "" });
  }
  return calls;
}

/** What a file of the trace is, by its name (a temporary file by the file it becomes). */
function kindOf(path: string): string {
  const name = basename(path);
  const target = /^\.(.*)\.\d+\.[0-9a-f]{12}\.tmp$/.exec(name)?.[1] ?? name;
  return /^\d{8}T\d{6}Z-\d+-.*\.log$/.test(target) ? "iteration log" : target;
}

describe.skipIf(!straceWorks)("durability of the files `loop run` writes", () => {
  it("fsyncs loop_state.json (file and folder) on every write but a started agent's process group, and never status.json, the iteration logs or loop_metrics.json", async () => {
    // Outside the project: a file changing there would be progress, and the wrap-up go on.
    const traceFolder = await mkdtemp(join(tmpdir(), "loop-durability-"));
    const log = join(traceFolder, "trace");
    const run = spawnSync(
      "strace",
      [
        "-f",
        "-qq",
        "-y",
        "-o",
        log,
        "-e",
        "trace=execve,fsync,fdatasync,rename,renameat,renameat2",
      ].concat([process.execPath, LOOP_BIN, "run", "--cmd", "sh stub.sh", "--json"]),
      { cwd: project.dir, env, encoding: "utf8", timeout: 120_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const calls = loopCalls(await readFile(log, "utf8"));
    await rm(traceFolder, { recursive: true, force: true });
    const renamesTo = (kind: string) =>
      calls.filter((call) => call.name === "rename" && kindOf(call.to ?? "") === kind);
    const fsyncsOf = (kind: string) =>
      calls.filter((call) => call.name === "fsync" && kindOf(call.path) === kind);

    expect(run.stdout).toContain(`"exitReason":"plan_complete"`);
    // Every replaced file was written: one iteration per task and the wrap-up (status.json at
    // most every 100 ms, and at the end).
    for (const kind of ["loop_state.json", "loop_metrics.json", "iteration log"]) {
      expect(renamesTo(kind).length, kind).toBeGreaterThanOrEqual(TASKS);
    }
    expect(renamesTo("status.json").length).toBeGreaterThanOrEqual(1);
    // loop_state.json: its temporary file flushed before the rename, its folder after it —
    // every write but the one that adds a started agent's process group (a power loss ends the
    // agent too), which always follows a flushed one: a power loss loses that record at most.
    const flushed = renamesTo("loop_state.json").map((rename) => {
      const at = calls.indexOf(rename);
      const flushedBefore = calls
        .slice(0, at)
        .some((call) => call.name === "fsync" && call.path === rename.path);
      const folderAfter = calls
        .slice(at + 1)
        .some((call) => call.name === "fsync" && call.path === dirname(rename.to ?? ""));
      return flushedBefore && folderAfter;
    });
    // The run's start, one before each agent, the last outcome and the exit.
    expect(flushed.filter(Boolean).length).toBeGreaterThanOrEqual(TASKS + 3);
    expect(flushed.at(-1), "the exit's write is flushed").toBe(true);
    flushed.forEach((isFlushed, index) => {
      if (!isFlushed) expect(flushed[index - 1], `write ${index} follows a flushed one`).toBe(true);
    });
    // The display snapshot, the logs and the derived metrics: replaced, never flushed.
    expect(fsyncsOf("status.json")).toEqual([]);
    expect(fsyncsOf("iteration log")).toEqual([]);
    expect(fsyncsOf("loop_metrics.json")).toEqual([]);
    // Nothing outside the state root is flushed (the plan is not written in this run).
    const fsynced = calls.filter((call) => call.name === "fsync").map((call) => call.path);
    const stateRoot = join(project.dir, ".claude", "loop", "state");
    expect(fsynced.filter((path) => !path.startsWith(`${stateRoot}/`))).toEqual([]);
  }, 150_000);
});

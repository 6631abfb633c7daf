import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleWithCore } from "./support/bundle-with-core.js";

// Kills a process writing state through createFileStateStore with SIGKILL at random moments,
// hundreds of times, and checks after each kill that nothing was lost or torn: the current
// document is the last completed write or the one in flight, and the backup is complete too.
//
// The writer (test/fixtures/state-writer.mjs) is plain JavaScript importing a bundle of the
// store's TypeScript source, built here with esbuild (tsup's own dependency), so each child
// starts as fast as node itself: start-up is most of the cost of every kill.

const storeSource = fileURLToPath(
  new URL("../packages/fs/src/file-state-store.ts", import.meta.url),
);
const writerScript = fileURLToPath(new URL("./fixtures/state-writer.mjs", import.meta.url));

/**
 * Kills in total (`LOOP_CRASH_KILLS` raises it for a longer soak), spread over `lanes` writers
 * killed and restarted side by side.
 */
const totalKills = Math.max(200, Number(process.env.LOOP_CRASH_KILLS ?? 0) || 0);
const lanes = 2;
const terminalId = "term_crash";
const key = "loop_state";

/** The part of esbuild's API this test uses. */
/** Bundles the store's source, with @loop/core from source, into one ESM file. */
function bundleStore(directory: string): Promise<string> {
  return bundleWithCore(storeSource, join(directory, "file-state-store.bundle.mjs"));
}

/** What one writer child did before it died. */
interface WriterRun {
  readonly pid: number | undefined;
  /** Set once the child held the lock: whom it took the lock over from. */
  readonly ready: { readonly takenOverFrom: { readonly pid: number } | null } | null;
  /** Sequence numbers of the writes the child completed, in order. */
  readonly sequences: number[];
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

interface WriterOptions {
  readonly bundle: string;
  readonly root: string;
  readonly writer: string;
  readonly lock: boolean;
}

/** A started writer child: loads the store, then waits for {@link Writer.go}. */
interface Writer {
  /** Settles once the child has loaded the store (or has died). */
  readonly loaded: Promise<void>;
  /** Settles when the child has exited and its output is read. */
  readonly closed: Promise<WriterRun>;
  /** Calls `listener` once the child holds the lock and starts writing. */
  onReady(listener: () => void): void;
  /** Lets the child start writing at sequence `start`. */
  go(start: number): void;
  kill(): void;
}

/** The environment of the children, without loaders a test runner may have put in it. */
const childEnvironment = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => name !== "NODE_OPTIONS"),
);

function startWriter(options: WriterOptions): Writer {
  const argument = JSON.stringify({ ...options, terminalId, key });
  const child = spawn(process.execPath, [writerScript, argument], {
    stdio: ["pipe", "pipe", "pipe"],
    env: childEnvironment,
  });
  let pending = "";
  let stderr = "";
  let ready: WriterRun["ready"] = null;
  let readyListener: (() => void) | null = null;
  const sequences: number[] = [];
  let markLoaded = () => {};
  const loaded = new Promise<void>((resolve) => {
    markLoaded = resolve;
  });
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      if (/^\d+$/.test(line)) sequences.push(Number(line));
      else if (line === "loaded") markLoaded();
      else if (line.startsWith("ready ")) {
        ready = { takenOverFrom: JSON.parse(line.split(" ").slice(2).join(" ")) };
        readyListener?.();
      }
    }
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.on("error", () => {
    // The child may be killed before it reads its instructions.
  });
  const closed = new Promise<WriterRun>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (_code, signal) => {
      markLoaded();
      resolve({ pid: child.pid, ready, sequences, signal, stderr });
    });
  });
  return {
    loaded,
    closed,
    onReady(listener) {
      readyListener = listener;
    },
    go(start) {
      child.stdin.write(`go ${start}\n`);
    },
    kill() {
      child.kill("SIGKILL");
    },
  };
}

/** A written document, checked whole: a torn or mixed file fails to parse or to match. */
interface WrittenDocument {
  readonly sequence: number;
  readonly writer: string;
}

function parseDocument(text: string | null, what: string): WrittenDocument | null {
  if (text === null) return null;
  let value: { sequence?: unknown; writer?: unknown; size?: unknown; padding?: unknown };
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${what} is not JSON (${text.length} bytes): ${text.slice(0, 80)}`);
  }
  if (
    typeof value.sequence !== "number" ||
    typeof value.writer !== "string" ||
    typeof value.padding !== "string" ||
    value.padding.length !== value.size
  ) {
    throw new Error(`${what} is not a complete document: ${text.slice(0, 80)}`);
  }
  return { sequence: value.sequence, writer: value.writer };
}

async function readIfPresent(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** What one lane of kills found. */
interface LaneReport {
  kills: number;
  completedWrites: number;
  killedMidWrite: number;
  killedBetweenBackupAndRename: number;
  takeovers: number;
  problems: string[];
  leftovers: string[];
}

async function runLane(bundle: string, root: string, kills: number, lane: number) {
  const directory = join(root, "terminals", terminalId);
  const report: LaneReport = {
    kills: 0,
    completedWrites: 0,
    killedMidWrite: 0,
    killedBetweenBackupAndRename: 0,
    takeovers: 0,
    problems: [],
    leftovers: [],
  };
  const pids = new Set<number>();
  const options = { bundle, root, writer: `lane${lane}`, lock: true };
  let onDisk: number | null = null;
  let previous: WriterRun | null = null;
  let upcoming = startWriter(options);
  for (let index = 0; index < kills; index += 1) {
    const writer = upcoming;
    await writer.loaded;
    // Start the next writer now, so that its start-up overlaps this one's run.
    upcoming = startWriter(options);
    const start = onDisk === null ? 0 : onDisk + 1;
    // A quarter of the kills land anywhere from taking over the lock on; the rest while
    // writing, 0 to 30 ms after the first write began.
    if (Math.random() < 0.25) {
      setTimeout(() => writer.kill(), Math.floor(Math.random() * 40));
    } else {
      writer.onReady(() => setTimeout(() => writer.kill(), Math.floor(Math.random() * 30)));
    }
    writer.go(start);
    const run = await writer.closed;
    report.kills += 1;
    const where = `lane ${lane}, kill ${index}`;
    if (run.signal !== "SIGKILL" || run.stderr !== "") {
      report.problems.push(`${where}: writer ended by ${run.signal}: ${run.stderr.slice(0, 300)}`);
      break;
    }
    // The lock: a writer that got it took it over from a killed writer of this lane.
    const takenOverFrom = run.ready?.takenOverFrom ?? null;
    if (takenOverFrom !== null) {
      report.takeovers += 1;
      if (!pids.has(takenOverFrom.pid)) {
        report.problems.push(`${where}: took the lock over from unknown pid ${takenOverFrom.pid}`);
      }
    } else if (run.ready !== null && previous !== null && previous.ready !== null) {
      report.problems.push(`${where}: the lock of killed pid ${previous.pid} was not taken over`);
    }
    if (run.pid !== undefined) pids.add(run.pid);
    previous = run;

    const expected = start;
    run.sequences.forEach((sequence, position) => {
      if (sequence !== expected + position) {
        report.problems.push(`${where}: completed ${sequence}, expected ${expected + position}`);
      }
    });
    report.completedWrites += run.sequences.length;
    const lastCompleted: number | null = run.sequences.at(-1) ?? onDisk;
    try {
      const current = parseDocument(
        await readIfPresent(join(directory, `${key}.json`)),
        `${where}: current`,
      );
      const backup = parseDocument(
        await readIfPresent(join(directory, `${key}.json.bak`)),
        `${where}: backup`,
      );
      if (current === null) {
        if (lastCompleted !== null) report.problems.push(`${where}: current lost`);
      } else {
        const floor: number = lastCompleted ?? -1;
        if (current.sequence < floor || current.sequence > floor + 1) {
          report.problems.push(
            `${where}: current ${current.sequence}, last completed ${lastCompleted}`,
          );
        }
        if (current.sequence === floor + 1) report.killedMidWrite += 1;
        if (backup !== null && backup.sequence === current.sequence) {
          report.killedBetweenBackupAndRename += 1;
        }
        const backupOk =
          backup === null
            ? current.sequence === 0
            : backup.sequence === current.sequence || backup.sequence === current.sequence - 1;
        if (!backupOk) {
          report.problems.push(
            `${where}: backup ${backup?.sequence ?? null} for current ${current.sequence}`,
          );
        }
        onDisk = current.sequence;
      }
    } catch (error) {
      report.problems.push((error as Error).message);
      break;
    }
  }
  upcoming.kill();
  await upcoming.closed;
  report.leftovers = (await readdir(directory).catch(() => [])).filter(
    (name) => ![`${key}.json`, `${key}.json.bak`, ".lock"].includes(name),
  );
  return report;
}

let workDirectory: string;
let bundle: string;

beforeAll(async () => {
  workDirectory = await mkdtemp(join(tmpdir(), "loop-crash-safety-"));
  bundle = await bundleStore(workDirectory);
}, 60_000);

afterAll(async () => {
  await rm(workDirectory, { recursive: true, force: true });
});

describe("FileStateStore under SIGKILL", () => {
  it(`loses and tears nothing over ${totalKills} kills at random moments`, async () => {
    const started = Date.now();
    const reports = await Promise.all(
      Array.from({ length: lanes }, (_, lane) =>
        runLane(bundle, join(workDirectory, `lane${lane}`), Math.ceil(totalKills / lanes), lane),
      ),
    );
    const seconds = (Date.now() - started) / 1000;
    type Figure = Exclude<keyof LaneReport, "problems" | "leftovers">;
    const sum = (field: Figure) => reports.reduce((total, report) => total + report[field], 0);
    const problems = reports.flatMap((report) => report.problems);
    console.info(
      `crash-safety: ${sum("kills")} SIGKILLs in ${seconds.toFixed(1)} s (${lanes} writers side by side), ` +
        `${sum("completedWrites")} completed writes, ${sum("killedMidWrite")} kills with a write in flight ` +
        `that landed, ${sum("killedBetweenBackupAndRename")} between backup and rename, ` +
        `${sum("takeovers")} stale-lock takeovers, ${problems.length} lost or corrupt states`,
    );
    expect(problems).toEqual([]);
    expect(sum("kills")).toBeGreaterThanOrEqual(200);
    // The kills landed where it matters (how many depends on the machine's speed).
    expect(sum("completedWrites")).toBeGreaterThan(sum("kills") / 4);
    expect(sum("killedMidWrite")).toBeGreaterThan(0);
    expect(sum("takeovers")).toBeGreaterThan(sum("kills") / 2);
    // At most the temporary files (and takeover guard) of the last killed writer remain: the
    // next write or lock cleans them, as it cleaned those of every writer before.
    for (const report of reports) {
      for (const name of report.leftovers) {
        expect(name).toMatch(/^(\..*\.\d+\.[0-9a-f]{12}\.tmp|\.lock\.takeover)$/);
      }
      expect(report.leftovers.length).toBeLessThanOrEqual(3);
    }
  }, 240_000);

  it("never shows a torn document while several processes write one key at once", async () => {
    const root = join(workDirectory, "concurrent");
    const writers = Array.from({ length: 3 }, (_, index) =>
      startWriter({ bundle, root, writer: `w${index}`, lock: false }),
    );
    await Promise.all(writers.map((writer) => writer.loaded));
    for (const [index, writer] of writers.entries()) writer.go(index * 1_000_000);
    const directory = join(root, "terminals", terminalId);
    const writersSeen = new Set<string>();
    let reads = 0;
    const until = Date.now() + 1500;
    try {
      while (Date.now() < until) {
        for (const name of [`${key}.json`, `${key}.json.bak`]) {
          const document = parseDocument(await readIfPresent(join(directory, name)), name);
          if (document !== null) {
            reads += 1;
            writersSeen.add(document.writer);
          }
        }
      }
    } finally {
      for (const writer of writers) writer.kill();
      await Promise.all(writers.map((writer) => writer.closed));
    }
    console.info(`crash-safety: ${reads} whole reads while 3 processes wrote one key`);
    expect(reads).toBeGreaterThan(50);
    expect(writersSeen.size).toBeGreaterThan(1);
    parseDocument(await readFile(join(directory, `${key}.json`), "utf8"), "final current");
    parseDocument(await readFile(join(directory, `${key}.json.bak`), "utf8"), "final backup");
  }, 30_000);
});

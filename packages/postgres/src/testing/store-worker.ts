// A child process for the multi-process tests, bundled by `bundleWorker` and run with plain
// node: one "machine" with its own pool. Its job comes as JSON in argv[2]; it reports on
// stdout, one JSON line per fact.
import { StateLockedError } from "@loop/core";
import { createPostgresStateStore } from "../postgres-state-store.js";

/** The job of a worker. */
export interface WorkerJob {
  /** `counter`: lock, increment, release; `writer`: unlocked sets; `race`: one lock on "go"; `hold`: lock and wait to be killed. */
  readonly mode: "counter" | "writer" | "race" | "hold";
  readonly url: string;
  readonly schema: string;
  readonly terminalId: string;
  /** Increments or writes to make. */
  readonly count?: number;
  /** The writer's number, in its texts. */
  readonly writer?: number;
  readonly leaseMs?: number;
}

const job = JSON.parse(process.argv[2] ?? "{}") as WorkerJob;
const store = createPostgresStateStore({
  connectionString: job.url,
  schema: job.schema,
  ...(job.leaseMs === undefined ? {} : { leaseMs: job.leaseMs }),
  runId: `worker-${process.pid}`,
});
const say = (fact: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(fact)}\n`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function lockWhenFree(): Promise<{
  lock: Awaited<ReturnType<typeof store.lock>>;
  refusals: number;
}> {
  for (let refusals = 0; ; refusals += 1) {
    try {
      return { lock: await store.lock(job.terminalId), refusals };
    } catch (error) {
      if (!StateLockedError.isInstance(error)) throw error;
      await pause(1 + Math.random() * 4);
    }
  }
}

/** Migrates, says it is ready, and waits for "go": so that all workers start at once. */
async function ready(): Promise<void> {
  await store.migrate();
  say({ ready: true });
  await nextLine();
}

async function counter(): Promise<void> {
  await ready();
  let refusals = 0;
  for (let index = 0; index < (job.count ?? 1); index += 1) {
    const taken = await lockWhenFree();
    refusals += taken.refusals;
    const text = await store.get(job.terminalId, "counter");
    const value = text === null ? 0 : Number(JSON.parse(text).value);
    await store.set(
      job.terminalId,
      "counter",
      JSON.stringify({ value: value + 1, by: process.pid }),
    );
    await taken.lock.release();
  }
  say({ done: true, refusals });
}

async function writer(): Promise<void> {
  await ready();
  for (let index = 0; index < (job.count ?? 1); index += 1) {
    await store.set(
      job.terminalId,
      "loop_state",
      `writer ${job.writer} write ${index} ${"x".repeat(2000)}`,
    );
  }
  say({ done: true });
}

/** Waits for one line on stdin. */
function nextLine(): Promise<void> {
  return new Promise((resolve) => process.stdin.once("data", () => resolve()));
}

async function race(): Promise<void> {
  await ready();
  try {
    const lock = await store.lock(job.terminalId);
    say({ acquired: true, holder: lock.holder });
    await nextLine();
    await lock.release();
  } catch (error) {
    if (!StateLockedError.isInstance(error)) throw error;
    say({ acquired: false, lockedBy: error.holder });
  }
  say({ done: true });
}

async function hold(): Promise<void> {
  const lock = await store.lock(job.terminalId);
  await store.set(job.terminalId, "worker_note", `held by ${process.pid}`);
  say({ locked: true, holder: lock.holder });
  // Renews in the background until killed; this timer keeps the process alive.
  setInterval(() => {}, 60_000);
}

const modes = { counter, writer, race, hold } as const;
modes[job.mode]()
  .then(async () => {
    if (job.mode !== "hold") {
      await store.close();
      process.exit(0);
    }
  })
  .catch((error: unknown) => {
    say({ error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    process.exit(1);
  });

// A child process for the multi-process test of the PostgreSQL shared limits, bundled by
// `bundleWorker` and run with plain node: one "machine" with its own pool. Its job comes as JSON
// in argv[2]; it reports on stdout, one JSON line per fact: `ready` once connected and migrated,
// then, after a line on stdin ("go"), `done` with the calls it was granted before a refusal.
import { createPostgresSharedLimits } from "../postgres-shared-limits.js";

/** The job of a claiming worker. */
export interface SharedLimitsWorkerJob {
  readonly url: string;
  readonly schema: string;
  /** The shared limits' row. */
  readonly name: string;
  readonly maxCallsPerHour: number;
  /** Its number, in its terminal id. */
  readonly worker: number;
}

const job = JSON.parse(process.argv[2] ?? "{}") as SharedLimitsWorkerJob;
const limits = createPostgresSharedLimits({
  connectionString: job.url,
  schema: job.schema,
  name: job.name,
  maxCallsPerHour: job.maxCallsPerHour,
});
const caller = { terminalId: `worker-${job.worker}`, runId: `pid-${process.pid}` };
const say = (fact: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(fact)}\n`);

async function main(): Promise<void> {
  // Connects and migrates, so that every worker starts claiming at once on "go".
  await limits.readUsage();
  say({ ready: true });
  await new Promise((resolve) => process.stdin.once("data", resolve));
  let granted = 0;
  for (;;) {
    const claim = await limits.claimCall(caller);
    if (!claim.granted) {
      say({ done: true, granted, refusal: claim.refusal, usage: claim.usage });
      return;
    }
    granted += 1;
  }
}

main()
  .then(async () => {
    await limits.close();
    process.exit(0);
  })
  .catch((error: unknown) => {
    say({ error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    process.exit(1);
  });

import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  describeWithPostgres,
  dropSchema,
  testPool,
  uniqueSchemaName,
} from "../../packages/postgres/src/testing/test-database.js";
import { createGitProject } from "../support/git-repository.js";
import { waitForLine } from "../support/wait-for-line.js";
import { DEMO_AGENT, LOOP_BIN, runCliProcess, TWO_TASK_PLAN } from "./support.js";

// The config's `fleet` limits from the `loop` binary: two projects on one machine, each its own
// `loop run`, hold one hourly call limit together — in a counter file of this machine with
// files, in a row of the database with `state.store: postgres://…`.

/** The fleet's limit: the first project makes two calls, the second one more, then waits. */
const FLEET_CALLS = 3;

const hourOf = (time: number) => Math.floor(time / 3_600_000);

interface Machine {
  readonly folder: string;
  readonly env: Record<string, string>;
}

function gitProject(machine: Machine, name: string, config: string): Promise<string> {
  const files = { "plan.md": TWO_TASK_PLAN, ".claude/loop/config.yaml": config };
  return createGitProject(join(machine.folder, name), files, machine.env);
}

/**
 * Runs the first project to completion (two calls), then the second until its claim is
 * refused; answers the wait it reports, or `null` when the UTC hour turned meanwhile (the
 * counts started again: the caller tries once more).
 */
async function secondLoopWaits(
  machine: Machine,
  config: string,
  round: number,
): Promise<Record<string, unknown> | null> {
  const startHour = hourOf(Date.now());
  const first = await gitProject(machine, `first-${round}`, config);
  const second = await gitProject(machine, `second-${round}`, config);
  const done = await runCliProcess(
    ["run", "--terminal-id", `first-${round}`, "--cmd", `node ${DEMO_AGENT}`],
    first,
    machine.env,
  );
  expect(done.stderr).toContain("exit: all_tasks_complete");
  const child: ChildProcess = spawn(
    process.execPath,
    [LOOP_BIN, "run", "--json", "--terminal-id", `second-${round}`, "--cmd", `node ${DEMO_AGENT}`],
    { cwd: second, env: machine.env, stdio: ["ignore", "pipe", "pipe"] },
  );
  try {
    const line = await waitForLine(child, '{"type":"wait"', "the second loop run");
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    // Its one call completed its first task; the second waits for the fleet.
    expect(readFileSync(join(second, "plan.md"), "utf8")).toContain("- [x] TASK-001");
    expect(readFileSync(join(second, "plan.md"), "utf8")).toContain("- [ ] TASK-002");
    return JSON.parse(line) as Record<string, unknown>;
  } catch (error) {
    if (hourOf(Date.now()) !== startHour) return null;
    throw error;
  } finally {
    child.kill("SIGKILL");
  }
}

async function fleetWait(machine: Machine, config: string): Promise<Record<string, unknown>> {
  const wait =
    (await secondLoopWaits(machine, config, 1)) ?? (await secondLoopWaits(machine, config, 2));
  if (wait === null) throw new Error("the UTC hour turned twice during the test");
  return wait;
}

let machine: Machine;

beforeEach(async () => {
  const folder = await mkdtemp(join(tmpdir(), "loop-fleet-limits-"));
  const home = join(folder, "home");
  await mkdir(home);
  machine = { folder, env: { PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1" } };
});

afterEach(async () => {
  await rm(machine.folder, { recursive: true, force: true });
});

describe("fleet limits with files", { timeout: 120_000 }, () => {
  it("two projects on one machine share fleet.max_calls_per_hour through ~/.loop/shared-limits/", async () => {
    const wait = await fleetWait(machine, `fleet:\n  max_calls_per_hour: ${FLEET_CALLS}\n`);
    expect(wait).toMatchObject({ kind: "rate_limit", scope: "fleet" });
    expect(wait.message).toBe(
      `${FLEET_CALLS} of ${FLEET_CALLS} calls this hour across the fleet (file)`,
    );
    const counters = JSON.parse(
      readFileSync(join(machine.env.HOME ?? "", ".loop", "shared-limits", "default.json"), "utf8"),
    ) as { calls_made: number };
    expect(counters.calls_made).toBe(FLEET_CALLS);
  });

  it("refuses a fleet.name that cannot name a counter file", async () => {
    const dir = await gitProject(machine, "bad-name", "fleet:\n  max_cost_usd: 5\n  name: ../up\n");
    const run = await runCliProcess(["run", "--cmd", `node ${DEMO_AGENT}`], dir, machine.env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('fleet.name is "../up": with files it names the counter file');
  });
});

describeWithPostgres("fleet limits in PostgreSQL", (url) => {
  let schema: string;
  let pool: ReturnType<typeof testPool>;
  beforeEach(() => {
    schema = uniqueSchemaName("fleet");
    pool = testPool(url, "loop-fleet-tests");
  });
  afterEach(async () => {
    await dropSchema(pool, schema);
    await pool.end();
  });

  it("two projects share fleet.max_calls_per_hour through one row of the database", {
    timeout: 120_000,
  }, async () => {
    const store = new URL(url);
    store.searchParams.set("schema", schema);
    const config = `state:\n  store: ${store}\nfleet:\n  max_calls_per_hour: ${FLEET_CALLS}\n  name: team-a\n`;
    const wait = await fleetWait(machine, config);
    expect(wait).toMatchObject({ kind: "rate_limit", scope: "fleet" });
    expect(wait.message).toBe(
      `${FLEET_CALLS} of ${FLEET_CALLS} calls this hour across the fleet (postgres)`,
    );
    const rows = await pool.query(`SELECT name, calls FROM "${schema}".shared_limits`);
    expect(rows.rows).toEqual([{ name: "team-a", calls: FLEET_CALLS }]);
  });
});

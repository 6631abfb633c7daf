import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import {
  describeWithPostgres,
  dropSchema,
  testPool,
  uniqueSchemaName,
} from "../../packages/postgres/src/testing/test-database.js";
import { createGitProject } from "../support/git-repository.js";
import { agentStarted, killLoopAndAgent, SLOW_AGENT } from "./slow-agent.js";
import { type CliRun, DEMO_AGENT, LOOP_BIN, runCliProcess, TWO_TASK_PLAN } from "./support.js";

// `loop` with its state in PostgreSQL, the way a fleet runs it: real git projects, the real
// `loop` binary, a real server, two projects on one machine sharing one database, and the
// read-only commands run from a folder that is neither project.

describeWithPostgres("loop with --store postgres://", (url) => {
  let machine: string;
  let env: Record<string, string>;
  let schema: string;
  let store: string;
  let pool: ReturnType<typeof testPool>;

  beforeEach(async () => {
    machine = await mkdtemp(join(tmpdir(), "loop-fleet-"));
    const home = join(machine, "home");
    await mkdir(home);
    await writeFile(join(machine, "slow-agent.mjs"), SLOW_AGENT);
    env = { PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1" };
    schema = uniqueSchemaName("cli");
    const withSchema = new URL(url);
    withSchema.searchParams.set("schema", schema);
    store = withSchema.toString();
    pool = testPool(url, "loop-cli-tests");
  });

  afterEach(async () => {
    await dropSchema(pool, schema);
    await pool.end();
    await rm(machine, { recursive: true, force: true });
  });

  const gitProject = (name: string, files: Record<string, string> = {}) =>
    createGitProject(join(machine, name), { "plan.md": TWO_TASK_PLAN, ...files }, env);

  const loop = (dir: string, args: readonly string[], extraEnv: Record<string, string> = {}) =>
    runCliProcess(args, dir, { ...env, ...extraEnv });
  const demo = ["--cmd", `node ${DEMO_AGENT}`];

  async function rows(sql: string): Promise<Record<string, unknown>[]> {
    return (await pool.query(sql.replaceAll("<schema>", `"${schema}"`))).rows;
  }

  function expectSucceeded(run: CliRun): void {
    expect(run.stderr).toContain("exit: all_tasks_complete");
    expect(run.code).toBe(0);
  }

  it("two projects share one database; status --all, status and monitor read every loop from it", {
    timeout: 120_000,
  }, async () => {
    const api = await gitProject("api");
    // `web` names the database in its config; `$LOOP_STORE` and `--store` do for the others.
    const config = `state:\n  store: ${store}\n`;
    const web = await gitProject("web", { ".claude/loop/config.yaml": config });

    expectSucceeded(await loop(api, ["run", "--store", store, "--terminal-id", "api", ...demo]));
    const second = await loop(web, ["run", "--terminal-id", "web", ...demo]);
    expectSucceeded(second);
    // Where a repository's config sends the state is said, not silently taken.
    expect(second.stderr).toContain(
      `loop run: state and decisions go to ${url} (schema ${schema}) (state.store of ${join(web, ".claude", "loop", "config.yaml")})`,
    );

    // The state is in the database, not in the projects.
    for (const dir of [api, web]) {
      expect(existsSync(join(dir, ".claude", "loop", "state"))).toBe(false);
    }
    const documents = await rows(
      `SELECT terminal_id, key FROM <schema>.state_documents WHERE key = 'loop_state' ORDER BY 1`,
    );
    expect(documents).toEqual([
      { terminal_id: "api", key: "loop_state" },
      { terminal_id: "web", key: "loop_state" },
    ]);
    const exits = await rows(
      `SELECT terminal_id, payload->>'exit_reason' AS reason FROM <schema>.decision_events
          WHERE event = 'loop_exit' ORDER BY 1`,
    );
    expect(exits).toEqual([
      { terminal_id: "api", reason: "all_tasks_complete" },
      { terminal_id: "web", reason: "all_tasks_complete" },
    ]);
    // And still in each project's own decision log, for `loop logs` and tools that tail it.
    const apiLog = readFileSync(join(api, ".claude", "loop", "logs", "decision.log"), "utf8");
    expect(apiLog).toContain('"event":"loop_exit"');

    // Every loop of the database, from a folder that is neither project.
    const elsewhere = join(machine, "elsewhere");
    await mkdir(elsewhere);
    const listed = await loop(elsewhere, ["status", "--all", "--json"], { LOOP_STORE: store });
    expect(listed.code).toBe(0);
    const report = JSON.parse(listed.stdout) as {
      store: string;
      loops: {
        terminalId: string;
        project: string;
        host: string | null;
        state: { run: { exit_reason: string } };
        lastEvent: { event: string };
      }[];
    };
    expect(report.store).toBe(`${url} (schema ${schema})`);
    expect(
      report.loops.map((row) => [
        row.terminalId,
        row.project,
        row.host,
        row.state.run.exit_reason,
        row.lastEvent.event,
      ]),
    ).toEqual([
      ["api", api, null, "all_tasks_complete", "loop_exit"],
      ["web", web, null, "all_tasks_complete", "loop_exit"],
    ]);
    const text = await loop(elsewhere, ["status", "--all", "--store", store]);
    expect(text.stdout).toContain(`2 loops in ${url} (schema ${schema})`);
    expect(text.stdout).toMatch(
      new RegExp(
        `\\n {2}web +${web} +- +exited: all_tasks_complete +\\S+ +loop_exit all_tasks_complete after 2 iterations`,
      ),
    );

    // One loop, its last decisions read from the events table.
    const one = await loop(elsewhere, ["status", "--store", store, "--terminal-id", "web"]);
    expect(one.stdout).toContain("exited: all_tasks_complete");
    expect(one.stdout).toContain(`${join(web, "plan.md")} — 2/2 tasks done`);
    expect(one.stdout).toMatch(/loop_exit +all_tasks_complete after 2 iterations/);
    const frame = await loop(elsewhere, [
      "monitor",
      "--once",
      "--store",
      store,
      "--terminal-id",
      "api",
    ]);
    expect(frame.code).toBe(0);
    expect(frame.stdout).toContain("all_tasks_complete");
    expect(frame.stdout).toContain("loop_exit");

    // In a project, without --terminal-id: its own loop, never the fleet's latest (web ran
    // last, but its plan is elsewhere), also once status.json no longer names it.
    await rm(join(api, ".claude", "loop", "status.json"));
    const own = await loop(api, ["status", "--store", store]);
    expect(own.stdout).toContain("loop status — terminal api");

    // A terminal of one project is not another's: refused, nothing written.
    const before = await rows(`SELECT count(*)::int AS n FROM <schema>.decision_events`);
    const refused = await loop(web, ["run", "--terminal-id", "api", ...demo]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `the state of terminal "api" in ${url} (schema ${schema}) belongs to another project`,
    );
    expect(await rows(`SELECT count(*)::int AS n FROM <schema>.decision_events`)).toEqual(before);
  });

  it("status --all shows a running loop with its host and pid, and after kill -9 that it crashed", {
    timeout: 60_000,
  }, async () => {
    const dir = await gitProject("crash");
    const child = spawn(
      process.execPath,
      [
        LOOP_BIN,
        "run",
        "--store",
        store,
        "--terminal-id",
        "crash",
        "--cmd",
        `node ${join(machine, "slow-agent.mjs")}`,
      ],
      { cwd: dir, env, stdio: "ignore" },
    );
    const pidFile = join(dir, "agent.pid");
    try {
      await agentStarted(child, pidFile);
      const running = await loop(machine, ["status", "--all", "--store", store]);
      expect(running.stdout).toMatch(
        new RegExp(`\\n {2}crash +${dir} +${hostname()} +running \\(pid ${child.pid}\\)`),
      );
      const exited = new Promise((resolve) => child.on("exit", resolve));
      child.kill("SIGKILL");
      await exited;
      const crashed = await loop(machine, ["status", "--all", "--store", store]);
      expect(crashed.stdout).toContain(`crashed (pid ${child.pid} gone)`);
    } finally {
      killLoopAndAgent(child, pidFile);
    }
  });
});

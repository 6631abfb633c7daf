import { realpathSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { configJsonSchema, DEFAULT_CONFIG, parseConfig, parsePlan } from "@loop/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestProject, LOOP_BIN, type TestProject } from "./support.js";

// `loop init`, run as a user runs it: the built binary in a throwaway folder.

let project: TestProject;

beforeEach(async () => {
  project = await createTestProject();
});

afterEach(async () => {
  await project.remove();
});

const read = (path: string) => readFile(join(project.dir, path), "utf8");
const CONFIG = ".claude/loop/config.yaml";
const SCHEMA = ".claude/loop/config.schema.json";
const SETTINGS = ".claude/settings.json";
/** Without `loop` on PATH, the hook runs this binary by its path (quoted for the shell when needed). */
const ABSOLUTE_COMMAND = `${process.execPath} ${realpathSync(LOOP_BIN)} hook stop`;
const STOP_HOOK = { hooks: [{ type: "command", command: ABSOLUTE_COMMAND }] };
/** The block cap `--hook` sets: the default `limits.max_iterations`. */
const BLOCK_CAP = { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: String(DEFAULT_CONFIG.limits.max_iterations) };

/** The config text with every key line uncommented (`#key: value` → `key: value`). */
function uncommentAll(text: string): string {
  return text.replace(/^( *)#(?=[a-z_])/gm, "$1");
}

describe("loop init", { timeout: 30_000 }, () => {
  it("creates plan.md, the config and its schema, and exits 0", async () => {
    const run = await project.run(["init"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^created +plan\.md$/m);
    expect(run.stdout).toMatch(/^created +\.claude\/loop\/config\.yaml$/m);
    expect(run.stdout).toMatch(/^created +\.claude\/loop\/config\.schema\.json$/m);
    const plan = parsePlan(await read("plan.md"), { file: "plan.md" });
    expect(plan.tasks[0]).toMatchObject({ id: "TASK-001", done: false });
    expect(plan.status?.exitSignal).toBe(false);
    expect(plan.requirements.length).toBeGreaterThan(0);
    expect(JSON.parse(await read(SCHEMA))).toEqual(configJsonSchema());
  });

  it("writes a config that points at the schema and parses to the defaults, commented or not", async () => {
    await project.run(["init"]);
    const config = await read(CONFIG);
    expect(config.split("\n")[0]).toBe("# yaml-language-server: $schema=./config.schema.json");
    expect(parseConfig(config)).toEqual(DEFAULT_CONFIG);
    const uncommented = uncommentAll(config);
    expect(parseConfig(uncommented, { file: CONFIG })).toEqual(DEFAULT_CONFIG);
    for (const [section, settings] of Object.entries(DEFAULT_CONFIG)) {
      if (typeof settings !== "object") {
        expect(uncommented).toMatch(new RegExp(`^${section}: `, "m"));
        continue;
      }
      expect(uncommented).toMatch(new RegExp(`^${section}:$`, "m"));
      for (const key of Object.keys(settings)) {
        expect(uncommented).toMatch(new RegExp(`^ {2}${key}: `, "m"));
      }
    }
  });

  it("keeps existing files on a second run, says so, and exits 0", async () => {
    await project.run(["init"]);
    await writeFile(join(project.dir, "plan.md"), "- [ ] MINE-1 My own plan\n");
    const run = await project.run(["init"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^kept +plan\.md \(exists; --force overwrites it\)$/m);
    expect(run.stdout).toMatch(/^kept +\.claude\/loop\/config\.yaml/m);
    expect(run.stdout).toMatch(/^unchanged +\.claude\/loop\/config\.schema\.json/m);
    expect(await read("plan.md")).toBe("- [ ] MINE-1 My own plan\n");
  });

  it("overwrites with --force, and brings an outdated schema up to date without it", async () => {
    await project.run(["init"]);
    await writeFile(join(project.dir, "plan.md"), "mine\n");
    await writeFile(join(project.dir, SCHEMA), "{}\n");
    const refreshed = await project.run(["init"]);
    expect(refreshed.stdout).toMatch(/^updated +\.claude\/loop\/config\.schema\.json/m);
    expect(await read("plan.md")).toBe("mine\n");
    const forced = await project.run(["init", "--force"]);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/^overwritten +plan\.md$/m);
    expect(await read("plan.md")).toContain("- [ ] TASK-001");
  });

  it("puts the plan where --plan says and names it in the config", async () => {
    const run = await project.run(["init", "--plan", "docs/plan.md"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^created +docs\/plan\.md$/m);
    expect(parseConfig(await read(CONFIG)).plans.default_plan).toBe("docs/plan.md");
    const validate = await project.run(["validate"]);
    expect(validate.stdout).toContain("valid: docs/plan.md");
    expect(validate.code).toBe(0);
  });

  it("says which plan `loop run` runs when a kept config names another one", async () => {
    const first = await project.run(["init", "--plan", "docs/plan.md"]);
    expect(first.stdout).toContain("run it with `loop run`.");
    const other = await project.run(["init", "--plan", "other.md"]);
    expect(other.code).toBe(0);
    expect(other.stdout).toMatch(/^kept +\.claude\/loop\/config\.yaml/m);
    expect(other.stdout).toContain(
      "run it with `loop run other.md` (a plain `loop run` runs docs/plan.md, the config's plans.default_plan).",
    );
  });

  it("prints the Stop hook snippet with --hook", async () => {
    const run = await project.run(["init", "--hook"]);
    expect(run.code).toBe(0);
    const json = run.stdout.slice(run.stdout.indexOf("\n{") + 1);
    expect(JSON.parse(json.slice(0, json.lastIndexOf("}") + 1))).toEqual({
      env: BLOCK_CAP,
      hooks: { Stop: [STOP_HOOK] },
    });
    expect(run.stdout).toContain(`Add this to ${SETTINGS}`);
    const explicit = await project.run(["init", "--hook", "print"]);
    expect(explicit.stdout.slice(explicit.stdout.indexOf("\n{") + 1)).toBe(json);
  });

  it("installs the Stop hook, keeping every other setting and hook, and never twice", async () => {
    const settings = {
      model: "opus",
      permissions: { allow: ["Bash(pnpm test:*)"] },
      hooks: {
        PostToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: "pnpm format" }] }],
        Stop: [{ hooks: [{ type: "command", command: "say done" }] }],
      },
    };
    await mkdir(join(project.dir, ".claude"), { recursive: true });
    await writeFile(join(project.dir, SETTINGS), JSON.stringify(settings));
    const run = await project.run(["init", "--hook", "install"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^updated +\.claude\/settings\.json \(Stop hook/m);
    const merged = JSON.parse(await read(SETTINGS));
    expect(merged).toEqual({
      ...settings,
      hooks: { ...settings.hooks, Stop: [...settings.hooks.Stop, STOP_HOOK] },
      env: BLOCK_CAP,
    });
    const again = await project.run(["init", "--hook", "install"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("the Stop hook is already installed");
    expect(JSON.parse(await read(SETTINGS))).toEqual(merged);
  });

  it("creates .claude/settings.json with --hook install when there is none", async () => {
    const run = await project.run(["init", "--hook=install"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^created +\.claude\/settings\.json/m);
    expect(JSON.parse(await read(SETTINGS))).toEqual({
      env: BLOCK_CAP,
      hooks: { Stop: [STOP_HOOK] },
    });
    // `loop` is not on PATH (an alias at most): the hook runs this binary, and says so.
    expect(run.stdout).toContain("`loop` is not on PATH");
    expect(run.stdout).toContain("npm install -g");
  });

  it("writes `loop hook stop` when an executable `loop` is on PATH", async () => {
    const bin = join(project.dir, "bin");
    await mkdir(bin);
    await writeFile(
      join(bin, "loop"),
      `#!/bin/sh\nexec '${process.execPath}' '${LOOP_BIN}' "$@"\n`,
    );
    await chmod(join(bin, "loop"), 0o755);
    const run = await project.run(["init", "--hook", "install"], {
      env: { PATH: `${bin}:${process.env.PATH ?? ""}` },
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(await read(SETTINGS)).hooks).toEqual({
      Stop: [{ hooks: [{ type: "command", command: "loop hook stop" }] }],
    });
    expect(run.stdout).not.toContain("not on PATH");
  });

  it("raises a block cap below max_iterations, and keeps one that lets as many through", async () => {
    await mkdir(join(project.dir, ".claude"), { recursive: true });
    const low = {
      env: { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "8", OTHER: "x" },
      hooks: { Stop: [STOP_HOOK] },
    };
    await writeFile(join(project.dir, SETTINGS), JSON.stringify(low));
    expect((await project.run(["init", "--hook", "install"])).code).toBe(0);
    expect(JSON.parse(await read(SETTINGS))).toEqual({ ...low, env: { ...BLOCK_CAP, OTHER: "x" } });

    for (const kept of ["50", "0"]) {
      const high = { env: { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: kept }, hooks: { Stop: [STOP_HOOK] } };
      await writeFile(join(project.dir, SETTINGS), JSON.stringify(high));
      const run = await project.run(["init", "--hook", "install"]);
      expect(run.stdout).toContain("the Stop hook is already installed");
      expect(JSON.parse(await read(SETTINGS))).toEqual(high);
    }
  });

  it("refuses to touch settings that are not valid JSON: exit 1, the error located", async () => {
    await mkdir(join(project.dir, ".claude"), { recursive: true });
    const broken = '{\n  "model": "opus",\n}\n';
    await writeFile(join(project.dir, SETTINGS), broken);
    const run = await project.run(["init", "--hook", "install"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^\.claude\/settings\.json:3:1: not valid JSON/m);
    expect(run.stderr).toContain("was left as it is");
    expect(await read(SETTINGS)).toBe(broken);
    expect(await read("plan.md")).toContain("TASK-001");
  });

  it("rejects a wrong command line with exit code 2", async () => {
    const hook = await project.run(["init", "--hook=instal"]);
    expect(hook.code).toBe(2);
    expect(hook.stderr).toContain("--hook takes print or install");
    const unknown = await project.run(["init", "--forse"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Did you mean --force?");
    const extra = await project.run(["init", "plan.md"]);
    expect(extra.code).toBe(2);
  });
});

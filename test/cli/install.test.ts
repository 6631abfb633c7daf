import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestProject, type TestProject } from "./support.js";

// The README's install step, as written, with `--prefix` so the test leaves the machine's global
// folder alone: `npm install -g ./packages/cli` puts a working `loop` on PATH, and the Stop hook
// then runs `loop hook stop`.

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

let project: TestProject;
beforeEach(async () => {
  project = await createTestProject();
});
afterEach(async () => {
  await project.remove();
});

describe("installing the loop command", { timeout: 120_000 }, () => {
  it("npm install -g ./packages/cli puts `loop` on PATH, and the Stop hook uses it", async () => {
    const readme = await readFile(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain("npm install -g ./packages/cli");
    const prefix = join(project.dir, "global");
    await run("npm", ["install", "-g", "--prefix", prefix, "./packages/cli"], { cwd: ROOT });
    const bin = join(prefix, "bin");
    const env = { PATH: `${bin}:${process.env.PATH ?? ""}` };
    const version = await run("loop", ["--version"], { env: { ...project.env, ...env } });
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);

    const init = await project.run(["init", "--hook", "install"], { env });
    expect(init.code).toBe(0);
    const settings = JSON.parse(await readFile(join(project.dir, ".claude/settings.json"), "utf8"));
    expect(settings.hooks.Stop[0].hooks[0].command).toBe("loop hook stop");
  });
});

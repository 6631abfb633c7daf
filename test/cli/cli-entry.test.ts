import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestProject, LOOP_BIN, type TestProject } from "./support.js";

// The `loop` entry point: version, help, unknown commands, and what `--version` loads.

const manifest = JSON.parse(
  readFileSync(new URL("../../packages/cli/package.json", import.meta.url), "utf8"),
);
const COMMANDS = [
  "run",
  "status",
  "logs",
  "reset",
  "branches",
  "monitor",
  "init",
  "validate",
  "hook",
];

let project: TestProject;
beforeAll(async () => {
  project = await createTestProject();
});
afterAll(async () => {
  await project.remove();
});

/** The modules a built file imports statically (`import … from "x"`), not `import("x")`. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^import\s+(?:[^"'()]*?\s+from\s+)?["']([^"']+)["'];?$/gm)].map(
    (match) => match[1] ?? "",
  );
}

/** Every module `--version` loads before running: the static import graph of dist/loop.js. */
function startupGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of staticImports(file)) {
      if (specifier.startsWith(".")) visit(join(dirname(file), specifier));
      else packages.add(specifier);
    }
  };
  visit(entry);
  return { files: [...files], packages: [...packages] };
}

describe("the loop binary", { timeout: 60_000 }, () => {
  it("prints its package version", async () => {
    const run = await project.run(["--version"]);
    expect(run).toMatchObject({ code: 0, stdout: `${manifest.version}\n` });
  });

  it("loads no SDK package and no dependency to start: commands load when they run", () => {
    const graph = startupGraph(LOOP_BIN);
    expect(graph.packages.filter((name) => !name.startsWith("node:"))).toEqual([]);
    // A few kilobytes of the CLI's own code: the dispatcher and the command table.
    const bytes = graph.files.reduce((sum, file) => sum + readFileSync(file).length, 0);
    expect(bytes).toBeLessThan(20_000);
  });

  it("is self-contained: no built file loads a package other than Node's own", () => {
    // So `pnpm --filter @loop/cli build` alone gives a working binary, and the published CLI
    // needs no install of the SDK packages.
    const directory = dirname(LOOP_BIN);
    const loaded = new Set<string>();
    // Every built file, the commands' own bundles in dist/commands/ included.
    const files = readdirSync(directory, { recursive: true, encoding: "utf8" });
    for (const file of files.filter((name) => name.endsWith(".js"))) {
      const text = readFileSync(join(directory, file), "utf8");
      const pattern = /(?:from\s+|import\(|require\()["']([^"'.][^"']*)["']/g;
      for (const match of text.matchAll(pattern)) loaded.add(match[1] ?? "");
    }
    const builtins = new Set(builtinModules);
    const foreign = [...loaded].filter(
      (name) => !name.startsWith("node:") && !builtins.has(name.split("/")[0] ?? ""),
    );
    expect(foreign).toEqual([]);
    expect(loaded.size).toBeGreaterThan(3);
  });

  it("lists every command in --help, and shows the overview with exit 2 when given none", async () => {
    const help = await project.run(["--help"]);
    expect(help.code).toBe(0);
    for (const command of COMMANDS) expect(help.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    const none = await project.run([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("Usage: loop <command> [options]");
  });

  it.each(COMMANDS)("loop %s --help shows its usage and examples", async (command) => {
    const help = await project.run([command, "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(`Usage: loop ${command}`);
    expect(help.stdout).toContain("Examples:");
    expect((await project.run(["help", command])).stdout).toBe(help.stdout);
  });

  it("refuses an unknown command with the nearest one", async () => {
    const run = await project.run(["statsu"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown command "statsu". Did you mean "status"?');
  });
});

import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

// The README's CLI tour must work as written: its shell block is run here, word for word, from
// the repository's root (with a throwaway HOME and TMPDIR).

const root = fileURLToPath(new URL("../../", import.meta.url));

async function tourScript(): Promise<string> {
  const readme = await readFile(join(root, "README.md"), "utf8");
  const section = readme.split("## A 30-second tour of the CLI")[1] ?? "";
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error("README.md has no tour block");
  return block;
}

let scratch: string;
beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), "loop-tour-"));
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("the README's CLI tour", { timeout: 120_000 }, () => {
  it("runs as written: init, validate, dry run, a run to completion, status", async () => {
    const script = `shopt -s expand_aliases\nset -euo pipefail\n${await tourScript()}`;
    const run = spawnSync("bash", ["-c", script], {
      cwd: root,
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: scratch, TMPDIR: scratch, NO_COLOR: "1" },
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(run.stdout).toContain("Dry run: nothing is run or written.");
    expect(run.stderr).toContain("exit: all_tasks_complete");
    expect(run.stdout).toContain("exited: all_tasks_complete");
  });
});

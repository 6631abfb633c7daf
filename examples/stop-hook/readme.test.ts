import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The README shows this example's output: run it (as `pnpm start` does) and compare.

const folder = fileURLToPath(new URL(".", import.meta.url));

describe("examples/stop-hook", { timeout: 60_000 }, () => {
  it("prints what its README shows", () => {
    const readme = readFileSync(new URL("README.md", import.meta.url), "utf8");
    const shown = /```text\n([\s\S]*?)```/.exec(readme)?.[1];
    const run = spawnSync(process.execPath, ["--import", "tsx", "main.ts"], {
      cwd: folder,
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(shown);
  });
});

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { measure, report } from "./measure.js";

// Start-up of the built `loop` binary: `loop --version` and `loop --help` (a whole process each).
// Target: `--version` under 150 ms. Build first (`pnpm build`); the bench says so when it cannot.

const bin = fileURLToPath(new URL("../packages/cli/dist/loop.js", import.meta.url));
if (!existsSync(bin)) {
  console.log("\nCLI start-up: packages/cli/dist/loop.js is missing; run `pnpm build` first");
} else {
  const bare = await measure(
    "node -e '' (the floor)",
    () => spawnSync(process.execPath, ["-e", ""]),
    {
      runs: 30,
      warmup: 3,
    },
  );
  const version = await measure(
    "loop --version",
    () => execFileSync(process.execPath, [bin, "--version"]),
    {
      runs: 30,
      warmup: 3,
    },
  );
  const help = await measure("loop --help", () => execFileSync(process.execPath, [bin, "--help"]), {
    runs: 30,
    warmup: 3,
  });
  const status = await measure(
    "loop status --help (loads a command)",
    () => execFileSync(process.execPath, [bin, "status", "--help"]),
    { runs: 30, warmup: 3 },
  );
  report("CLI start-up (whole process)", [bare, { ...version, target: "< 150 ms" }, help, status]);
}

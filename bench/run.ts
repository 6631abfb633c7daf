import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

// Runs every bench/*.bench.ts in turn, each in a process of its own (so that none measures in
// the heap, the open handles or the leftovers of the ones before it); each prints its own
// figures. `@loop/*` imports resolve to the package sources through the root tsconfig paths
// (tsx reads them).
const directory = new URL("./", import.meta.url);
const files = readdirSync(directory)
  .filter((name) => name.endsWith(".bench.ts"))
  .sort();
let failed = 0;
for (const file of files) {
  const run = spawnSync(
    process.execPath,
    ["--expose-gc", "--import", "tsx", fileURLToPath(new URL(file, directory))],
    { stdio: "inherit" },
  );
  if (run.status !== 0) {
    failed += 1;
    console.error(`${file}: exited with ${run.status ?? run.signal}`);
  }
}
if (failed > 0) process.exitCode = 1;

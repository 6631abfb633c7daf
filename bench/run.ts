import { readdirSync } from "node:fs";

// Runs every bench/*.bench.ts in turn; each prints its own figures. Benchmarks import the built
// packages (`pnpm bench` builds first), so they measure what users run.
const directory = new URL("./", import.meta.url);
const files = readdirSync(directory)
  .filter((name) => name.endsWith(".bench.ts"))
  .sort();
for (const file of files) {
  await import(new URL(file, directory).href);
}

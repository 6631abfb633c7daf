import { readdirSync } from "node:fs";

// Runs every bench/*.bench.ts in turn; each prints its own figures. `@loop/*` imports resolve to
// the package sources through the root tsconfig paths (tsx reads them).
const directory = new URL("./", import.meta.url);
const files = readdirSync(directory)
  .filter((name) => name.endsWith(".bench.ts"))
  .sort();
for (const file of files) {
  await import(new URL(file, directory).href);
}

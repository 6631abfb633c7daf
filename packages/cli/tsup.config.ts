import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));

// Two entries: the library (`runCli`) and the `loop` binary. Splitting keeps each command in its
// own chunk, loaded only when it runs, so `loop --version` loads almost nothing.
export default defineConfig({
  entry: { index: "src/index.ts", loop: "src/bin.ts" },
  format: ["esm"],
  target: "node20",
  dts: { entry: { index: "src/index.ts" } },
  clean: true,
  sourcemap: true,
  splitting: true,
  define: { __LOOP_CLI_VERSION__: JSON.stringify(version) },
});

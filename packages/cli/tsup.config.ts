import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "tsup";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
const source = (name: string) => fileURLToPath(new URL(`../${name}/src/index.ts`, import.meta.url));
const SDK = ["core", "fs", "exec", "claude"] as const;

// The `loop` binary is one self-contained bundle: the SDK packages from their sources and every
// dependency, so `pnpm --filter @loop/cli build` alone gives a working binary and start-up
// resolves no package. Splitting keeps each command in its own chunk, loaded when it runs, so
// `loop --version` loads a few kilobytes. The library entry (`runCli`) is bundled the same way.
export default defineConfig({
  entry: { index: "src/index.ts", loop: "src/bin.ts" },
  format: ["esm"],
  platform: "node",
  target: "node20",
  dts: {
    entry: { index: "src/index.ts" },
    compilerOptions: {
      paths: Object.fromEntries(SDK.map((name) => [`@loop/${name}`, [source(name)]])),
    },
  },
  clean: true,
  sourcemap: true,
  splitting: true,
  noExternal: [/.*/],
  esbuildOptions(options) {
    options.alias = Object.fromEntries(SDK.map((name) => [`@loop/${name}`, source(name)]));
  },
  // Bundled CommonJS dependencies may `require` Node's built-in modules.
  banner: {
    js: 'import { createRequire as __loopCreateRequire } from "node:module"; const require = __loopCreateRequire(import.meta.url);',
  },
  define: { __LOOP_CLI_VERSION__: JSON.stringify(version) },
});

import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, type Options } from "tsup";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
const source = (name: string) => fileURLToPath(new URL(`../${name}/src/index.ts`, import.meta.url));
const SDK = ["core", "fs", "exec", "claude", "git", "postgres"] as const;
const COMMANDS = readdirSync(new URL("./src/commands/", import.meta.url))
  .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
  .map((name) => name.slice(0, -".ts".length));

const SOURCE_FOLDER = fileURLToPath(new URL("./src/", import.meta.url));

/**
 * A relative `import()` in the CLI's own source stays an import of the file built from its
 * target, so what it loads loads when it runs: bin.ts's dispatcher and the command table
 * (run-cli), the commands (commands/<name>.js), close-match. Every such target is an entry
 * below (and sits where the import expects it). Dependencies' own `import()`s are bundled.
 */
const lazyImports: NonNullable<Options["esbuildPlugins"]>[number] = {
  name: "lazy-imports",
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) =>
      args.kind === "dynamic-import" && args.importer.startsWith(SOURCE_FOLDER)
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

// The `loop` binary is self-contained: the SDK packages from their sources and every
// dependency are bundled, so `pnpm --filter @loop/cli build` alone gives a working binary and
// start-up resolves no package. `loop --version` loads a few kilobytes; each command is one
// file (dist/commands/<name>.js) holding exactly what it runs, loaded when it runs.
//
// Not code splitting: esbuild makes chunks of whole modules, and a module the commands share
// brings every module it imports, for any command that uses any of it (the SDK's barrels, which
// re-export by name, are such modules). `loop status` and `loop hook stop` loaded a 1.1 MB chunk
// shared by every command, the engine and the executors in it; one file per command loads
// 0.86–0.9 MB and starts 60–80 ms sooner. The price is disk: the commands repeat the SDK
// (6.5 MB of JavaScript in all), so the source maps leave out the sources' text (they name the
// files and lines, which `node --enable-source-maps` needs; 4.4 MB instead of 15 MB).
// Minifying saved no measurable time and would cost readable stack traces, so it is off.
export default defineConfig({
  entry: {
    index: "src/index.ts",
    loop: "src/bin.ts",
    "run-cli": "src/run-cli.ts",
    "cli-io": "src/cli-io.ts",
    "close-match": "src/close-match.ts",
    // Loaded by a command only when its store is a postgres:// URL (node-postgres inside).
    "store/postgres-backend": "src/store/postgres-backend.ts",
    ...Object.fromEntries(COMMANDS.map((name) => [`commands/${name}`, `src/commands/${name}.ts`])),
  },
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
  splitting: false,
  noExternal: [/.*/],
  esbuildPlugins: [lazyImports],
  esbuildOptions(options) {
    options.alias = {
      ...Object.fromEntries(SDK.map((name) => [`@loop/${name}`, source(name)])),
      // node-postgres's optional native binding: absent, as when it is not installed.
      "pg-native": fileURLToPath(new URL("./src/store/no-pg-native.ts", import.meta.url)),
    };
    options.sourcesContent = false;
  },
  // Bundled CommonJS dependencies may `require` Node's built-in modules.
  banner: {
    js: 'import { createRequire as __loopCreateRequire } from "node:module"; const require = __loopCreateRequire(import.meta.url);',
  },
  define: { __LOOP_CLI_VERSION__: JSON.stringify(version) },
});

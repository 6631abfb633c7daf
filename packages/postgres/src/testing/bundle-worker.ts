import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

interface Esbuild {
  build(options: Record<string, unknown>): Promise<unknown>;
}

const coreSource = fileURLToPath(new URL("../../../core/src/index.ts", import.meta.url));
/** Inside the package, so the bundle finds `pg` in the package's node_modules. */
const outputFolder = fileURLToPath(new URL("../../node_modules/.loop-tests/", import.meta.url));

/**
 * Bundles a worker script (`store-worker.ts` unless told) with the package and `@loop/core`
 * from source into one ESM file that a child process runs with plain `node` (fast to start,
 * and killable at any instant), with the esbuild tsup brings. `pg` stays external: it is found
 * in the package's node_modules.
 *
 * @param name - the bundle's file name, unique per test file.
 * @param script - the worker's file in this folder: `store-worker.ts` by default.
 * @returns the bundle's path.
 */
export async function bundleWorker(name: string, script = "store-worker.ts"): Promise<string> {
  const workerSource = fileURLToPath(new URL(`./${script}`, import.meta.url));
  const require = createRequire(import.meta.url);
  const esbuildPath = createRequire(require.resolve("tsup")).resolve("esbuild");
  const esbuild = (await import(pathToFileURL(esbuildPath).href)) as Esbuild;
  await mkdir(outputFolder, { recursive: true });
  const outfile = `${outputFolder}${name}.mjs`;
  await esbuild.build({
    entryPoints: [workerSource],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "silent",
    external: ["pg"],
    plugins: [
      {
        name: "loop-core-from-source",
        setup(build: {
          onResolve(options: { filter: RegExp }, resolve: () => { path: string }): void;
        }) {
          build.onResolve({ filter: /^@loop\/core$/ }, () => ({ path: coreSource }));
        },
      },
    ],
  });
  return outfile;
}

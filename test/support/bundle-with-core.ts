import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

interface Esbuild {
  build(options: Record<string, unknown>): Promise<unknown>;
}

const coreSource = fileURLToPath(new URL("../../packages/core/src/index.ts", import.meta.url));

/**
 * Bundles one source file, with `@loop/core` from its source, into one ESM file a child process
 * can run with plain `node` (the crash tests kill such children), using the esbuild tsup brings.
 *
 * @param entry - the source file, absolute.
 * @param outfile - where the bundle goes, absolute.
 * @returns `outfile`.
 */
export async function bundleWithCore(entry: string, outfile: string): Promise<string> {
  const require = createRequire(import.meta.url);
  const esbuildPath = createRequire(require.resolve("tsup")).resolve("esbuild");
  const esbuild = (await import(pathToFileURL(esbuildPath).href)) as Esbuild;
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "silent",
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

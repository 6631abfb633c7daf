import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Every published package follows one template (see STYLE.md, "Package template"), and every
// file its `exports` map names exists after `pnpm build` (which `pnpm test` runs first).

const packagesDirectory = new URL("../packages/", import.meta.url).pathname;
// Private workspace packages (the conformance suite) are not published and skip the template.
const packageNames = readdirSync(packagesDirectory).filter((name) => {
  const manifestPath = join(packagesDirectory, name, "package.json");
  return (
    existsSync(manifestPath) && JSON.parse(readFileSync(manifestPath, "utf8")).private !== true
  );
});

type ExportTarget = string | { [condition: string]: ExportTarget };

function targets(entry: ExportTarget): string[] {
  return typeof entry === "string" ? [entry] : Object.values(entry).flatMap(targets);
}

describe.each(packageNames)("packages/%s", (name) => {
  const directory = join(packagesDirectory, name);
  const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8"));

  it("is an ESM package published as @loop/<folder>", () => {
    expect(manifest.name).toBe(`@loop/${name}`);
    expect(manifest.type).toBe("module");
    expect(manifest.sideEffects).toBe(false);
    expect(manifest.engines?.node).toBe(">=20");
    expect(manifest.files).toContain("dist");
  });

  it("lists types first in every export condition and exposes ./package.json", () => {
    const exportsMap = manifest.exports as Record<string, ExportTarget>;
    expect(exportsMap["./package.json"]).toBe("./package.json");
    for (const [subpath, entry] of Object.entries(exportsMap)) {
      if (typeof entry === "object") {
        expect(Object.keys(entry)[0], `exports["${subpath}"]`).toBe("types");
      }
    }
  });

  it("has built every file its exports map names", () => {
    const exportsMap = manifest.exports as Record<string, ExportTarget>;
    for (const entry of Object.values(exportsMap)) {
      for (const target of targets(entry)) {
        expect(existsSync(join(directory, target)), `${name}: ${target}`).toBe(true);
      }
    }
  });

  it("publishes every exported file", () => {
    const files = manifest.files as string[];
    const exportsMap = manifest.exports as Record<string, ExportTarget>;
    for (const entry of Object.values(exportsMap)) {
      for (const target of targets(entry)) {
        const relative = target.replace(/^\.\//, "");
        const published =
          relative === "package.json" ||
          files.some((file) => relative === file || relative.startsWith(`${file}/`));
        expect(published, `${name}: ${target} is not in "files"`).toBe(true);
      }
    }
  });
});

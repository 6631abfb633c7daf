import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// @loop/core does no I/O and reads no clock or timer it was not handed: no node: modules, no
// process, no timers, no Date.now(). Its tsconfig has `types: []`, so most of this also fails to
// typecheck; this test also catches globalThis lookups and dynamic requires.

const sourceDirectory = new URL("../packages/core/src/", import.meta.url).pathname;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

const forbidden: [string, RegExp][] = [
  ["a node: import", /from\s+["']node:/],
  ["a Node built-in import", /from\s+["'](fs|path|child_process|os|crypto|timers)(\/[\w/]+)?["']/],
  ["require()", /\brequire\s*\(/],
  ["process", /\bprocess\s*\./],
  ["a timer", /\b(setTimeout|setInterval|setImmediate)\s*\(/],
  ["a clock read", /\bDate\.now\s*\(|new Date\(\s*\)/],
  ["fetch", /\bfetch\s*\(/],
];

// The one exception: loop/system-clock.ts, runLoop's default clock when the caller passes none.
// It is the only place core reads the host's time or sets a timer; no policy uses it.
const defaultClock = "loop/system-clock.ts";

describe("@loop/core source", () => {
  const files = sourceFiles(sourceDirectory).filter(
    (file) => relative(sourceDirectory, file) !== defaultClock,
  );

  it("keeps the default clock in its one file", () => {
    const clockFiles = sourceFiles(sourceDirectory).filter((file) =>
      /\bsetTimeout\s*\(|\bDate\.now\s*\(/.test(readFileSync(file, "utf8")),
    );
    expect(clockFiles.map((file) => relative(sourceDirectory, file))).toEqual([defaultClock]);
  });

  it("has source files to check", () => {
    expect(files.length).toBeGreaterThan(3);
  });

  it.each(forbidden)("contains no %s", (_label, pattern) => {
    const offenders = files.filter((file) => pattern.test(readFileSync(file, "utf8")));
    expect(offenders.map((file) => relative(sourceDirectory, file))).toEqual([]);
  });
});

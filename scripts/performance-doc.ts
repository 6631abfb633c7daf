import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { stripVTControlCharacters } from "node:util";

// `pnpm bench:doc`: runs every benchmark (`pnpm bench`'s bench/run.ts) and writes what they
// print into docs/performance.md, between its bench markers, with the machine it ran on. The
// Performance section is then the bench's own output, never figures typed by hand.

const START = "<!-- bench:start -->";
const END = "<!-- bench:end -->";
const doc = new URL("../docs/performance.md", import.meta.url);

const output = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", "bench/run.ts"], {
  cwd: new URL("..", import.meta.url),
  encoding: "utf8",
  maxBuffer: 64 * 1024 * 1024,
});
const text = readFileSync(doc, "utf8");
const start = text.indexOf(START);
const end = text.indexOf(END);
if (start < 0 || end < start) throw new Error(`docs/performance.md has no ${START} … ${END}`);
const machine = `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, ${new Date().toISOString().slice(0, 10)}`;
const section = [
  START,
  "",
  `Measured by \`pnpm bench:doc\` on ${machine}.`,
  "",
  "```text",
  stripVTControlCharacters(output).trim(),
  "```",
  "",
].join("\n");
writeFileSync(doc, text.slice(0, start) + section + text.slice(end));
console.log(`docs/performance.md: wrote ${output.split("\n").length} lines of bench output`);

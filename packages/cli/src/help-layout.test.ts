import { describe, expect, it } from "vitest";
import { COMMANDS } from "./commands.js";

/** An option line: an indent of 2 or 6, `-x, ` or nothing, `--name`, maybe a value, then the description. */
const OPTION = /^( {2}| {6})(?:-\w, )?--[\w-]+(?: [<"[]\S+)?(?: +|$)/;

/** The lines of a help text's Options section. */
function optionLines(help: string): string[] {
  const lines = help.split("\n");
  const start = lines.indexOf("Options:");
  if (start < 0) return [];
  const end = lines.findIndex((line, index) => index > start && line.trim() === "");
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** Where each description starts: after an option, or the indent of a continuation line. */
function descriptionColumns(help: string): number[] {
  return optionLines(help).flatMap((line) => {
    const option = OPTION.exec(line);
    if (option === null) return [line.length - line.trimStart().length];
    return option[0].length === line.length ? [] : [option[0].length];
  });
}

describe("every command's --help", () => {
  for (const [name, entry] of Object.entries(COMMANDS)) {
    it(`loop ${name}: every option's description starts in one column`, async () => {
      const help = (await entry.load()).help;
      const columns = descriptionColumns(help);
      expect(columns.length).toBeGreaterThan(0);
      expect(new Set(columns), help).toEqual(new Set([columns[0]]));
    });
  }
});

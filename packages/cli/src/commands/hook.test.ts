import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../cli-io.js";
import { runCli } from "../run-cli.js";

function testIo(options: {
  tty: boolean;
  input?: string;
}): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const stdin = Object.assign(Readable.from(options.input === undefined ? [] : [options.input]), {
    isTTY: options.tty,
  });
  return {
    out,
    err,
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    stdin,
    env: { NO_COLOR: "1" },
    cwd: "/nowhere",
  };
}

describe("loop hook", () => {
  it("lists the hooks for a missing or unknown name: usage (2) from a terminal", async () => {
    for (const args of [["hook"], ["hook", "Stop"]]) {
      const io = testIo({ tty: true });
      expect(await runCli(args, io)).toBe(2);
      expect(io.err.join("")).toMatch(/Hooks:\n {2}stop {2}/);
    }
  });

  it("exits 1, never 2 (which blocks a stop), when run with piped input as a hook", async () => {
    const io = testIo({ tty: false, input: "{}" });
    expect(await runCli(["hook", "Stop"], io)).toBe(1);
    expect(io.err.join("")).toContain('unknown hook "Stop"');
    const options = testIo({ tty: false, input: "{}" });
    expect(await runCli(["hook", "stop", "--bogus"], options)).toBe(1);
    expect(options.err.join("")).toContain("loop hook stop: unknown option --bogus");
  });

  it("explains itself when typed in a terminal without input", async () => {
    const io = testIo({ tty: true });
    expect(await runCli(["hook", "stop"], io)).toBe(2);
    expect(io.err.join("")).toContain("passes the hook's JSON on stdin");
  });

  it("allows the stop, exit 0, for input it cannot use", async () => {
    const io = testIo({ tty: false, input: "garbage" });
    expect(await runCli(["hook", "stop"], io)).toBe(0);
    expect(io.out).toEqual([]);
    expect(io.err.join("")).toContain("allowing the stop");
  });
});

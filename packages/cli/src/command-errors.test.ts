import { Readable } from "node:stream";
import { LoopError } from "@loop/core";
import { describe, expect, it } from "vitest";
import type { CliIo } from "./cli-io.js";
import { withCommandErrors } from "./command-errors.js";
import { UsageError } from "./usage-error.js";

function testIo(): CliIo & { errors: string[] } {
  const errors: string[] = [];
  return {
    errors,
    stdout: { write: () => true },
    stderr: { write: (text: string) => errors.push(text) },
    stdin: Readable.from([]),
    env: {},
    cwd: "/",
  };
}

describe("withCommandErrors", () => {
  it("returns the body's exit code", async () => {
    expect(await withCommandErrors("x", testIo(), async () => 3)).toBe(3);
  });

  it("prints a usage error as it is, exit code 2", async () => {
    const io = testIo();
    const code = await withCommandErrors("x", io, async () => {
      throw new UsageError("loop x: unknown option --y.");
    });
    expect(code).toBe(2);
    expect(io.errors).toEqual(["loop x: unknown option --y.\n"]);
  });

  it("prints other loop errors and system errors with the command's name, exit code 1", async () => {
    const io = testIo();
    const loopError = await withCommandErrors("status", io, async () => {
      throw new LoopError({ message: "state is broken" });
    });
    const systemError = await withCommandErrors("init", io, async () => {
      throw Object.assign(new Error("EACCES: permission denied, open '/x'"), {
        code: "EACCES",
        path: "/x",
      });
    });
    expect([loopError, systemError]).toEqual([1, 1]);
    expect(io.errors).toEqual([
      "loop status: state is broken\n",
      "loop init: /x: permission denied\n",
    ]);
  });

  it("throws a bug on", async () => {
    await expect(
      withCommandErrors("x", testIo(), async () => {
        throw new TypeError("undefined is not a function");
      }),
    ).rejects.toThrow(TypeError);
  });
});

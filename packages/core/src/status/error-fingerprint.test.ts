import { describe, expect, it } from "vitest";
import { findErrorFingerprint } from "./error-fingerprint.js";
import { fnv1aHash } from "./fnv-hash.js";
import { normalizeErrorLine } from "./normalize-error.js";

const ESCAPE = String.fromCharCode(27);

/** The fingerprint of a text, failing the test when it has none. */
function fingerprint(text: string): string {
  const found = findErrorFingerprint(text);
  if (found === null) throw new Error(`no error found in ${JSON.stringify(text)}`);
  return found.fingerprint;
}

describe("findErrorFingerprint: recognised errors", () => {
  it.each([
    [
      "a JavaScript error",
      "Error: Cannot find module './config.js'",
      "Error: Cannot find module './config.js'",
    ],
    [
      "a TypeError",
      "TypeError: Cannot read properties of undefined (reading 'id')",
      "TypeError: Cannot read properties of undefined (reading 'id')",
    ],
    [
      "an uncaught error",
      "Uncaught ReferenceError: window is not defined",
      "Uncaught ReferenceError: window is not defined",
    ],
    [
      "a pytest failure",
      "FAILED tests/test_parser.py::test_empty - AssertionError: assert 0 == 1",
      "FAILED tests/test_parser.py::test_empty - AssertionError: assert 0 == 1",
    ],
    [
      "a TypeScript error",
      "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    ],
    [
      "a pretty TypeScript error",
      "src/a.ts:3:7 - error TS2322: Type 'string' is not assignable to type 'number'.",
      "src/a.ts:3:7 - error TS2322: Type 'string' is not assignable to type 'number'.",
    ],
    [
      "a compiler error",
      "main.c:10:5: error: expected ';' before 'return'",
      "main.c:10:5: error: expected ';' before 'return'",
    ],
    ["a Rust error", "error[E0308]: mismatched types", "error[E0308]: mismatched types"],
    [
      "a git error",
      "fatal: not a git repository (or any of the parent directories): .git",
      "fatal: not a git repository (or any of the parent directories): .git",
    ],
    [
      "a Go panic",
      "panic: runtime error: index out of range [3] with length 3",
      "panic: runtime error: index out of range [3] with length 3",
    ],
    ["a Go test failure", "--- FAIL: TestParse (0.00s)", "--- FAIL: TestParse (0.00s)"],
    [
      "a Java exception",
      "java.lang.NullPointerException: name is null",
      "java.lang.NullPointerException: name is null",
    ],
    [
      "a log error",
      "[ERROR] Failed to execute goal on project app",
      "[ERROR] Failed to execute goal on project app",
    ],
    ["a pytest E line", "E       AssertionError: assert 0 == 1", "AssertionError: assert 0 == 1"],
    ["a capitalised Fatal line", "Fatal: not a git repository", "Fatal: not a git repository"],
    [
      "a PostgreSQL FATAL line",
      'FATAL:  password authentication failed for user "app"',
      'FATAL:  password authentication failed for user "app"',
    ],
    [
      "a fatal error line",
      "Fatal error: Allowed memory size of 134217728 bytes exhausted",
      "Fatal error: Allowed memory size of 134217728 bytes exhausted",
    ],
    [
      "a linker error",
      "Link: error: undefined symbol _main",
      "Link: error: undefined symbol _main",
    ],
    [
      "an lld error",
      "ld.lld: error: undefined symbol: main",
      "ld.lld: error: undefined symbol: main",
    ],
    [
      "a compiler driver's fatal error",
      "clang: fatal error: no input files",
      "clang: fatal error: no input files",
    ],
    [
      "an MSVC linker error",
      "LINK : fatal error LNK1104: cannot open file 'kernel32.lib'",
      "LINK : fatal error LNK1104: cannot open file 'kernel32.lib'",
    ],
    ["a coloured error", `${ESCAPE}[31mError: boom${ESCAPE}[39m`, "Error: boom"],
    ["a timestamped error", "[2026-03-14 10:05:31] Error: disk full", "Error: disk full"],
  ])("reads %s", (_label, text, summary) => {
    expect(findErrorFingerprint(`Some output.\n${text}\nDone.`)?.summary).toBe(summary);
  });

  it("reads the last line of a Python traceback", () => {
    const text = [
      "Traceback (most recent call last):",
      '  File "/app/main.py", line 12, in <module>',
      "    main()",
      '  File "/app/main.py", line 8, in main',
      "    config = load()",
      "KeyError: 'database'",
    ].join("\n");
    expect(findErrorFingerprint(text)?.summary).toBe("KeyError: 'database'");
  });

  it("groups npm's lines and leaves out its boilerplate", () => {
    const text = [
      "npm ERR! code E404",
      "npm ERR! 404 Not Found - GET https://registry.npmjs.org/left-padd - Not found",
      "npm ERR! A complete log of this run can be found in:",
      "npm ERR!     /home/ci/.npm/_logs/2026-03-14T10_05_31_123Z-debug-0.log",
    ].join("\n");
    expect(findErrorFingerprint(text)?.summary).toBe("npm ERR! code E404 (and 1 more)");
  });

  it("groups a linker's lines and prefers its error to the driver's wrapper", () => {
    const text = [
      "ld.lld: error: undefined symbol: main",
      "clang: error: linker command failed with exit code 1 (use -v to see invocation)",
    ].join("\n");
    expect(findErrorFingerprint(text)?.summary).toBe(
      "ld.lld: error: undefined symbol: main (and 1 more)",
    );
  });

  it("prefers the specific error to a wrapper that follows it", () => {
    const text =
      "TypeError: x is not a function\n\nError: Command failed with exit code 1: npm test";
    expect(findErrorFingerprint(text)?.summary).toBe("TypeError: x is not a function");
  });

  it("takes the last error of several", () => {
    const text = "Error: first problem\n\nsome progress\n\nRangeError: second problem";
    expect(findErrorFingerprint(text)?.summary).toBe("RangeError: second problem");
  });

  it.each([
    ["no error at all", "All green. 42 tests passed."],
    ["a prose mention", "I fixed the error handling in the parser."],
    ["an error-type word with no message", "TypeError\nRangeError"],
    ["prose that mentions fatal", "That was a fatal mistake.\nFatal errors are now logged."],
    ["a label that is no tool's error", "Link: see the docs.\nNote: the error is gone."],
    ["an empty text", ""],
  ])("is null for %s", (_label, text) => {
    expect(findErrorFingerprint(text)).toBeNull();
  });

  it("counts `TypeError message` without a colon only outside prose", () => {
    const text = "TypeError Cannot read properties of undefined";
    expect(findErrorFingerprint(text)).not.toBeNull();
    expect(findErrorFingerprint(text, () => true)).toBeNull();
  });
});

describe("findErrorFingerprint: stability", () => {
  it.each([
    [
      "line and column numbers",
      "src/parser.ts(12,5): error TS2345: Argument of type 'string' is not assignable.",
      "src/parser.ts(48,17): error TS2345: Argument of type 'string' is not assignable.",
    ],
    [
      "timestamps and durations",
      "2026-03-14T10:05:31.123Z Error: request timed out after 5000ms",
      "2026-03-15T22:41:09.987Z Error: request timed out after 5012ms",
    ],
    [
      "temporary directories",
      "Error: ENOENT: no such file or directory, open '/tmp/vitest-a1b2c3/fixtures/plan.md'",
      "Error: ENOENT: no such file or directory, open '/tmp/vitest-x9y8z7/fixtures/plan.md'",
    ],
    [
      "macOS temporary directories",
      "Error: EACCES: permission denied, open '/var/folders/ab/cd12ef/T/loop-1/state.json'",
      "Error: EACCES: permission denied, open '/var/folders/zz/yy34xx/T/loop-2/state.json'",
    ],
    [
      "home directories",
      "Error: Cannot find module '/home/alice/project/src/a.js'",
      "Error: Cannot find module '/Users/bob/project/src/a.js'",
    ],
    [
      "hex addresses",
      "panic: runtime error: invalid memory address or nil pointer dereference [signal SIGSEGV addr=0x0 pc=0x4a3f21]",
      "panic: runtime error: invalid memory address or nil pointer dereference [signal SIGSEGV addr=0x8 pc=0x4b9e07]",
    ],
    [
      "process ids",
      "Error: worker pid 4121 exited unexpectedly",
      "Error: worker pid 98765 exited unexpectedly",
    ],
    ["ANSI colours", `${ESCAPE}[1m${ESCAPE}[31mError: boom${ESCAPE}[0m`, "Error: boom"],
    [
      "stack positions in the message",
      "Error: unexpected token at src/lexer.ts:12:5",
      "Error: unexpected token at src/lexer.ts:140:22",
    ],
    [
      "the order of failures",
      "FAILED tests/test_a.py::test_one - AssertionError\nFAILED tests/test_b.py::test_two - KeyError",
      "FAILED tests/test_b.py::test_two - KeyError\nFAILED tests/test_a.py::test_one - AssertionError",
    ],
    [
      "the text around the error",
      "Running the suite.\nError: boom\n\nI will look into it next.",
      "```\nError: boom\n```",
    ],
  ])("gives the same fingerprint whatever the %s", (_label, first, second) => {
    expect(fingerprint(first)).toBe(fingerprint(second));
  });

  it.each([
    ["messages", "Error: Cannot find module './a.js'", "Error: Cannot find module './b.js'"],
    ["error types", "TypeError: x is not a function", "RangeError: x is not a function"],
    [
      "TypeScript codes",
      "src/a.ts(1,1): error TS2345: Bad argument.",
      "src/a.ts(1,1): error TS2322: Bad argument.",
    ],
    [
      "files",
      "src/a.ts(1,1): error TS2345: Bad argument.",
      "src/b.ts(1,1): error TS2345: Bad argument.",
    ],
    [
      "failing tests",
      "FAILED tests/test_a.py::test_one - AssertionError",
      "FAILED tests/test_a.py::test_two - AssertionError",
    ],
    ["kinds with the same words", "error: boom", "Error: boom"],
  ])("gives different fingerprints for different %s", (_label, first, second) => {
    expect(fingerprint(first)).not.toBe(fingerprint(second));
  });

  it("is 16 hex digits", () => {
    expect(fingerprint("Error: boom")).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe("normalizeErrorLine", () => {
  it("replaces what changes between runs", () => {
    expect(
      normalizeErrorLine(
        "2026-03-14T10:05:31Z Error at /tmp/run-42/src/a.ts:3:9 after 1.5s (pid 77, id 0xdeadbeef, 3f2a9c1d7e)",
      ),
    ).toBe("<time> error at <tmp>/src/a.ts after <duration> (pid <n>, id <hex>, <hex>)");
  });
});

describe("fnv1aHash", () => {
  it.each([
    ["", "cbf29ce484222325"],
    ["a", "089be207b544f1e4"],
  ])("hashes %j to its FNV-1a 64 value over UTF-16 code units", (text, hash) => {
    expect(fnv1aHash(text)).toBe(hash);
  });

  it("tells close texts apart", () => {
    expect(fnv1aHash("error a")).not.toBe(fnv1aHash("error b"));
  });
});

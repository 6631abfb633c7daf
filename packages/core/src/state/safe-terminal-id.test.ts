import { describe, expect, it } from "vitest";
import { isSafeTerminalId, sanitizeTerminalId } from "./safe-terminal-id.js";

const hostile: readonly [string, string][] = [
  ["parent traversal", "../../etc"],
  ["a slash", "a/b"],
  ["a backslash", "a\\b"],
  ["..", ".."],
  [".", "."],
  ["a leading dot", ".hidden"],
  ["10 kB", "x".repeat(10_240)],
  ["a NUL", "a\u0000b"],
  ["a newline", "a\nb"],
  ["a tab and a DEL", "a\tb\u007f"],
  ["unicode", "términal-ü"],
  ["an emoji", "🚀 loop"],
  ["a Windows path", "C:\\x"],
  ["a drive-relative path", "C:x"],
  ["the empty string", ""],
  ["white space only", "   "],
  ["a tmux pane", "tmux-%3"],
  ["an iTerm2 session", "iterm-w0t0p0:6E1A3F5C-1B2C-4D5E-8F90-123456789ABC"],
];

describe("sanitizeTerminalId", () => {
  it.each(hostile)("makes %s safe", (_name, raw) => {
    const id = sanitizeTerminalId(raw);
    expect(isSafeTerminalId(id)).toBe(true);
    expect(id.length).toBeGreaterThan(0);
    expect(id.length).toBeLessThanOrEqual(64);
    expect(id).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(id.startsWith(".")).toBe(false);
    expect(sanitizeTerminalId(id)).toBe(id);
  });

  it("keeps every hostile input distinct from the others", () => {
    const ids = hostile.map(([, raw]) => sanitizeTerminalId(raw));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("returns a safe id as it is", () => {
    for (const id of ["default", "term_001", "A-z.0_9-", "a".repeat(64), "x..y"]) {
      expect(sanitizeTerminalId(id)).toBe(id);
    }
  });

  it("keeps a readable start and appends a hash", () => {
    expect(sanitizeTerminalId("tmux-%3")).toMatch(/^tmux-_3-[0-9a-f]{12}$/);
    expect(sanitizeTerminalId("../../etc")).toMatch(/^___\.\._etc-[0-9a-f]{12}$/);
    expect(sanitizeTerminalId("")).toMatch(/^_-[0-9a-f]{12}$/);
    expect(sanitizeTerminalId("🚀")).toMatch(/^_-[0-9a-f]{12}$/);
  });

  it("keeps ids distinct that differ only in replaced characters or beyond 64 characters", () => {
    expect(sanitizeTerminalId("a/b")).not.toBe(sanitizeTerminalId("a\\b"));
    expect(sanitizeTerminalId("a/b")).not.toBe(sanitizeTerminalId("a_b"));
    const long = "session-".repeat(20);
    expect(sanitizeTerminalId(`${long}1`)).not.toBe(sanitizeTerminalId(`${long}2`));
    expect(sanitizeTerminalId(`${long}1`).startsWith("session-session-")).toBe(true);
    expect(sanitizeTerminalId("a".repeat(65))).toHaveLength(64);
  });

  it("is stable", () => {
    expect(sanitizeTerminalId("tmux-%3")).toBe(sanitizeTerminalId("tmux-%3"));
  });
});

describe("isSafeTerminalId", () => {
  it.each(hostile)("refuses %s", (_name, raw) => {
    expect(isSafeTerminalId(raw)).toBe(false);
  });

  it("refuses a 65th character and what is not a string", () => {
    expect(isSafeTerminalId("a".repeat(64))).toBe(true);
    expect(isSafeTerminalId("a".repeat(65))).toBe(false);
    expect(isSafeTerminalId(7)).toBe(false);
    expect(isSafeTerminalId(undefined)).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { formatTimestamp, isIsoTimestamp, parseTimestamp } from "./iso-timestamp.js";

describe("isIsoTimestamp", () => {
  it.each([
    "2026-03-14T10:00:00",
    "2026-03-14T10:00:00Z",
    "2026-03-14T10:00:00.5Z",
    "2026-03-14T10:00:00.123456",
    "2026-03-14T23:59:59+14:00",
    "2026-03-14T10:00:00-0530",
    "2024-02-29T00:00:00Z",
  ])("accepts %s", (text) => {
    expect(isIsoTimestamp(text)).toBe(true);
  });

  it.each([
    "",
    "yesterday",
    "2026-03-14",
    "2026-03-14 10:00:00",
    "2026-03-14T10:00",
    "2026-13-01T00:00:00Z",
    "2026-02-29T00:00:00Z",
    "2026-04-31T00:00:00Z",
    "2026-03-14T24:00:00Z",
    "2026-03-14T10:60:00Z",
    "2026-03-14T10:00:60Z",
    "2026-03-14T10:00:00+25:00",
    "2026-03-14T10:00:00z",
    " 2026-03-14T10:00:00Z",
  ])("refuses %j", (text) => {
    expect(isIsoTimestamp(text)).toBe(false);
  });

  it("refuses what is not a string", () => {
    expect(isIsoTimestamp(1_773_482_400_000)).toBe(false);
    expect(isIsoTimestamp(null)).toBe(false);
  });
});

describe("parseTimestamp", () => {
  const tenUtc = Date.UTC(2026, 2, 14, 10, 0, 0);

  it("reads zones, and reads zone-less times as UTC whatever the machine's zone", () => {
    expect(parseTimestamp("2026-03-14T10:00:00Z")).toBe(tenUtc);
    expect(parseTimestamp("2026-03-14T10:00:00")).toBe(tenUtc);
    expect(parseTimestamp("2026-03-14T12:00:00+02:00")).toBe(tenUtc);
    expect(parseTimestamp("2026-03-14T04:30:00-0530")).toBe(tenUtc);
    expect(parseTimestamp("2026-03-14T10:00:00.25Z")).toBe(tenUtc + 250);
    expect(parseTimestamp("2026-03-14T10:00:00.123999Z")).toBe(tenUtc + 123);
  });

  it("reads years below 100 as written", () => {
    expect(new Date(parseTimestamp("0050-01-01T00:00:00Z")).getUTCFullYear()).toBe(50);
  });

  it("throws a RangeError for anything else", () => {
    expect(() => parseTimestamp("soon")).toThrow(RangeError);
  });
});

describe("formatTimestamp", () => {
  it("writes UTC with milliseconds, and round-trips through parseTimestamp", () => {
    const time = Date.UTC(2026, 2, 14, 10, 0, 0, 7);
    expect(formatTimestamp(time)).toBe("2026-03-14T10:00:00.007Z");
    expect(parseTimestamp(formatTimestamp(time))).toBe(time);
  });

  it("throws a RangeError for times it cannot write readably", () => {
    expect(() => formatTimestamp(Number.NaN)).toThrow(RangeError);
    expect(() => formatTimestamp(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => formatTimestamp(Date.UTC(10_000, 0, 1))).toThrow(RangeError);
  });
});

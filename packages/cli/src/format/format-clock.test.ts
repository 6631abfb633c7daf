import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatClock, formatUtcClock } from "./format-clock.js";

/** What formatClock gave before UTC skipped `Intl`: the reference for UTC. */
function viaIntl(time: number, now: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    timeZone,
  }).formatToParts(time);
  const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? "";
  const clock = `${part("hour")}:${part("minute")}:${part("second")}`;
  if (Math.abs(now - time) < 12 * 3_600_000) return clock;
  return `${part("year")}-${part("month")}-${part("day")} ${clock.slice(0, 5)}`;
}

describe("formatClock", () => {
  it("shows a time of day within 12 hours, a date and minutes beyond", () => {
    const now = Date.parse("2026-03-14T10:15:03Z");
    expect(formatClock(now - 60_000, now, "UTC")).toBe("10:14:03");
    expect(formatClock(Date.parse("2026-03-13T09:05:00Z"), now, "UTC")).toBe("2026-03-13 09:05");
    expect(formatUtcClock(Date.parse("2026-03-14T00:00:09Z"), now)).toBe("00:00:09 UTC");
    expect(formatClock(now, now, "Asia/Tokyo")).toBe("19:15:03");
  });

  it("gives in UTC what Intl gives, years 1 to 9999", () => {
    const time = fc.integer({
      min: Date.parse("0001-01-01T00:00:00Z"),
      max: Date.parse("9999-12-31T23:59:59Z"),
    });
    fc.assert(
      fc.property(time, time, (at, now) => {
        expect(formatClock(at, now, "UTC")).toBe(viaIntl(at, now, "UTC"));
      }),
      { numRuns: 2000 },
    );
  });
});

import { describe, expect, it } from "vitest";
import { detectUsageLimit } from "./detect-usage-limit.js";
import { isTransientOverload } from "./transient-overload.js";

/** 2026-01-15 05:00 UTC: 14:00 in Tokyo. */
const TOKYO_AFTERNOON = Date.UTC(2026, 0, 15, 5, 0);

describe("detectUsageLimit", () => {
  it("reads the epoch form", () => {
    expect(detectUsageLimit("Claude AI usage limit reached|1768500000", TOKYO_AFTERNOON)).toEqual({
      resetAt: 1768500000000,
      waitable: true,
      message: "Claude AI usage limit reached",
    });
  });

  it("reads 7pm (Asia/Tokyo) as the next 19:00 in Tokyo", () => {
    const limit = detectUsageLimit(
      "Claude usage limit reached. Your limit will reset at 7pm (Asia/Tokyo).",
      TOKYO_AFTERNOON,
    );
    expect(limit).toEqual({
      resetAt: Date.UTC(2026, 0, 15, 10, 0),
      waitable: true,
      message: "Claude usage limit reached. Your limit will reset at 7pm (Asia/Tokyo).",
    });
  });

  it("rolls over to tomorrow when the time has passed today", () => {
    const eightPmInTokyo = Date.UTC(2026, 0, 15, 11, 0);
    const limit = detectUsageLimit(
      "Claude usage limit reached. Your limit will reset at 7pm (Asia/Tokyo).",
      eightPmInTokyo,
    );
    expect(limit?.resetAt).toBe(Date.UTC(2026, 0, 16, 10, 0));
  });

  it("crosses midnight: 1am read at 23:00 is two hours later", () => {
    const elevenPmInTokyo = Date.UTC(2026, 0, 15, 14, 0);
    const limit = detectUsageLimit(
      "5-hour limit reached ∙ resets 1am (Asia/Tokyo)",
      elevenPmInTokyo,
    );
    expect(limit?.resetAt).toBe(Date.UTC(2026, 0, 15, 16, 0));
  });

  it("reads a zone-less time in UTC by default, else in options.timeZone", () => {
    const now = Date.UTC(2026, 0, 15, 20, 0);
    expect(detectUsageLimit("5-hour limit reached ∙ resets 1am", now)?.resetAt).toBe(
      Date.UTC(2026, 0, 16, 1, 0),
    );
    expect(
      detectUsageLimit("5-hour limit reached ∙ resets 1am", now, { timeZone: "Asia/Tokyo" })
        ?.resetAt,
    ).toBe(Date.UTC(2026, 0, 16, 16, 0));
  });

  it("uses the offset in force at the reset, across a daylight-saving change", () => {
    // 2026-03-08 is the day New York moves to EDT (UTC-4); 12:00 UTC is 08:00 EDT.
    const limit = detectUsageLimit(
      "You've hit your limit · resets 9pm (America/New_York)",
      Date.UTC(2026, 2, 8, 12, 0),
    );
    expect(limit?.resetAt).toBe(Date.UTC(2026, 2, 9, 1, 0));
  });

  it.each([
    ["You've hit your limit · resets 9:30pm (UTC)", Date.UTC(2026, 0, 15, 21, 30)],
    ["You’ve hit your limit · resets 9:30pm (UTC)", Date.UTC(2026, 0, 15, 21, 30)],
    ["You've hit your session limit · resets 11pm", Date.UTC(2026, 0, 15, 23, 0)],
    ["You're out of extra usage · resets 9pm", Date.UTC(2026, 0, 15, 21, 0)],
    ["Weekly limit reached ∙ resets Jan 19, 5pm", Date.UTC(2026, 0, 19, 17, 0)],
    [
      "API Error: 5-hour limit reached ∙ resets 12am\n/upgrade to increase your usage limit.",
      Date.UTC(2026, 0, 16, 0, 0),
    ],
  ])("reads %j", (text, resetAt) => {
    expect(detectUsageLimit(text, Date.UTC(2026, 0, 15, 12, 0))).toMatchObject({
      resetAt,
      waitable: true,
    });
  });

  it("falls back to the default zone for a zone it does not know", () => {
    const limit = detectUsageLimit(
      "You've hit your limit · resets 9pm (Mars/Olympus)",
      Date.UTC(2026, 0, 15, 12, 0),
    );
    expect(limit?.resetAt).toBe(Date.UTC(2026, 0, 15, 21, 0));
  });

  it.each([
    "Your usage allocation has been disabled by your admin",
    "You've reached your spend cap. Ask your admin to raise it.",
    "Monthly spend limit reached",
  ])("reads %j as a limit waiting does not lift", (text) => {
    expect(detectUsageLimit(text, TOKYO_AFTERNOON)).toMatchObject({
      resetAt: null,
      waitable: false,
    });
  });

  it.each([
    ["You've hit your usage limit · resets 9pm (UTC)", Date.UTC(2026, 0, 15, 21, 0)],
    [
      "You've hit your session limit · resets 9pm (UTC) · progress saved",
      Date.UTC(2026, 0, 15, 21, 0),
    ],
    [
      "You've hit your Fable limit · resets 9pm (UTC). Switch to another model to continue.",
      Date.UTC(2026, 0, 15, 21, 0),
    ],
    ["You've hit your limit · resets 9pm (UTC) · progress saved", Date.UTC(2026, 0, 15, 21, 0)],
  ])("reads the wording of newer CLIs: %j", (text, resetAt) => {
    expect(detectUsageLimit(text, TOKYO_AFTERNOON)).toEqual({
      resetAt,
      waitable: true,
      message: text,
    });
  });

  it("reads Claude Code's `You've reached your 5-hour usage limit · resets 3pm (Europe/Berlin)`", () => {
    const text = "You've reached your 5-hour usage limit · resets 3pm (Europe/Berlin)";
    // 05:00 UTC is 06:00 in Berlin (CET, UTC+1): 3pm there is 14:00 UTC the same day.
    expect(detectUsageLimit(text, TOKYO_AFTERNOON)).toEqual({
      resetAt: Date.UTC(2026, 0, 15, 14, 0),
      waitable: true,
      message: text,
    });
  });

  it.each([
    ["You've reached your usage limit · resets 9pm", Date.UTC(2026, 0, 15, 21, 0)],
    ["You’ve reached your weekly limit ∙ resets Jan 19, 5pm", Date.UTC(2026, 0, 19, 17, 0)],
    ["You've reached your session limit. Resets Jan 19 at 5pm.", Date.UTC(2026, 0, 19, 17, 0)],
    [
      "API Error: You've reached your 5-hour usage limit · resets 11:30pm (UTC) · progress saved",
      Date.UTC(2026, 0, 15, 23, 30),
    ],
  ])("reads the reset of %j", (text, resetAt) => {
    expect(detectUsageLimit(text, Date.UTC(2026, 0, 15, 12, 0))).toMatchObject({
      resetAt,
      waitable: true,
      message: text,
    });
  });

  it.each([
    "You've reached your 5-hour usage limit",
    "You’ve reached your 5-hour usage limit.",
    "You've reached your 5-hour usage limit · resets in 2 hours",
    "Done with the parser.\nYou've reached your 5-hour usage limit\n",
  ])("reads %j as a limit whose reset is unknown", (text) => {
    expect(detectUsageLimit(text, TOKYO_AFTERNOON)).toMatchObject({
      resetAt: null,
      waitable: true,
    });
  });

  it.each([
    "Your group's usage limit is set to $0 · ask your admin for a higher limit",
    "This service is disabled for your org",
  ])("an admin's block that waiting does not lift: %j", (text) => {
    expect(detectUsageLimit(text, TOKYO_AFTERNOON)).toEqual({
      resetAt: null,
      waitable: false,
      message: text,
    });
  });

  it("does not read a transient 429 as a limit", () => {
    const text =
      "API Error: 429 Our servers are experiencing high traffic, so we're temporarily limiting requests (this is not your usage limit). Please try again shortly.";
    expect(isTransientOverload(text)).toBe(true);
    expect(detectUsageLimit(text, TOKYO_AFTERNOON)).toBeNull();
  });

  it.each([
    "I updated the banner so that the 5-hour limit reached ∙ resets 1am message shows the zone.",
    'The test asserts `"5-hour limit reached ∙ resets 1am"` renders.',
    "Added a check for when the user hits the 5-hour limit.",
    'Docs: "You\'ve hit your limit · resets 9pm" is what users see.',
    "Fixed parsing of 'Claude AI usage limit reached|1768500000' lines.",
    "Warn the user when you've reached your 5-hour usage limit.",
    "The banner says You've reached your 5-hour usage limit · resets 3pm.",
    "You've reached your limit for today, so I will stop here.",
    "All tests pass.",
  ])("does not match prose that quotes a limit: %j", (text) => {
    expect(detectUsageLimit(text, TOKYO_AFTERNOON)).toBeNull();
  });
});

describe("isTransientOverload", () => {
  it("recognises overload errors and nothing else", () => {
    expect(
      isTransientOverload('API Error: 529 {"type":"error","error":{"type":"overloaded_error"}}'),
    ).toBe(true);
    expect(isTransientOverload("You've hit your limit · resets 9pm")).toBe(false);
    expect(isTransientOverload("All tests pass.")).toBe(false);
  });
});

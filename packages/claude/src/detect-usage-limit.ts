import type { UsageLimit } from "@loop/core";
import { isTransientOverload } from "./transient-overload.js";
import { isKnownTimeZone, nextCalendarTime, nextWallClockTime } from "./zoned-time.js";

/** Options of {@link detectUsageLimit}. */
export interface DetectUsageLimitOptions {
  /**
   * The IANA zone a reset time is read in when the message names none (`resets 9pm`).
   * Defaults to `UTC`: the CLI writes the zone of the machine it runs on, which a loop on
   * another machine cannot know; pass the agent machine's zone when it is not UTC.
   */
  readonly timeZone?: string | null | undefined;
}

/** A reset time in a message: an optional month and day, a time, an optional zone. */
const RESET_TIME =
  String.raw`(?:(?<month>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.? (?<day>\d{1,2}),?(?: at)? )?` +
  String.raw`(?<hour>\d{1,2})(?::(?<minute>\d{2}))?\s*(?<meridiem>[ap]\.?m\.?)?` +
  String.raw`(?:\s*\((?<zone>[^()\n]+)\))?`;

/** The separator of the CLI's banner messages: `∙`, `·` or `•`, or a dash. */
const SEPARATOR = String.raw`\s*[∙·•\-–—]\s*`;

/**
 * The end of a message line: the CLI's optional trailers (` · progress saved`, `. Switch to
 * another model to continue.`), an optional full stop, then the end of the line.
 */
const LINE_END = String.raw`(?:${SEPARATOR}progress saved)?(?:\s*\.?\s*Switch to another model to continue)?\s*\.?[ \t]*$`;

/** The start of a message line, with an optional `API Error:`-style lead-in. */
const LINE_START = String.raw`^[ \t]*(?:(?:API )?Error:\s*)?`;

/**
 * Claude Code's `You've reached your 5-hour usage limit`: a named limit (`5-hour`, `session`,
 * `weekly`, …) with or without `usage`, or a bare `usage limit`.
 */
const REACHED_YOUR_LIMIT =
  "You(?:['’]ve| have) reached your (?:(?:5-hour|session|weekly|daily|Opus weekly|Sonnet weekly|Opus|Sonnet) (?:usage )?|usage )limit";

/** The month abbreviations, to number a month name. */
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** How a usage-limit message reads, and how to find its reset time. */
interface UsageLimitShape {
  /** The message, anchored to a line of its own. */
  readonly pattern: RegExp;
  /** The reset time, from the match; `null` when the message gives none. */
  readonly resetAt: (
    groups: Readonly<Record<string, string | undefined>>,
    now: number,
    timeZone: string,
  ) => number | null;
}

/** The reset of a message that names a wall-clock time. */
function wallClockReset(
  groups: Readonly<Record<string, string | undefined>>,
  now: number,
  defaultTimeZone: string,
): number | null {
  let hour = Number(groups.hour);
  const minute = groups.minute === undefined ? 0 : Number(groups.minute);
  const meridiem = groups.meridiem?.replace(/\./g, "").toLowerCase();
  if (meridiem !== undefined) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === "pm" ? 12 : 0);
  }
  if (hour > 23 || minute > 59) return null;
  const namedZone = groups.zone?.trim();
  const timeZone =
    namedZone !== undefined && isKnownTimeZone(namedZone) ? namedZone : defaultTimeZone;
  if (groups.month !== undefined && groups.day !== undefined) {
    const month = MONTHS.indexOf(groups.month.slice(0, 3).toLowerCase()) + 1;
    return nextCalendarTime({ month, day: Number(groups.day), hour, minute }, now, timeZone);
  }
  return nextWallClockTime({ hour, minute }, now, timeZone);
}

/** The usage-limit messages Claude Code writes, the waitable ones. */
const WAITABLE_SHAPES: readonly UsageLimitShape[] = [
  {
    // Claude AI usage limit reached|1735689600
    pattern: new RegExp(
      String.raw`${LINE_START}Claude(?: AI)? usage limit reached\|(?<epoch>\d{9,11})\b`,
      "im",
    ),
    resetAt: (groups) => Number(groups.epoch) * 1000,
  },
  {
    // Claude usage limit reached. Your limit will reset at 7pm (Asia/Tokyo).
    pattern: new RegExp(
      String.raw`${LINE_START}(?:Claude(?: AI| Code)? )?usage limit reached\.?\s+Your limit will reset at ${RESET_TIME}${LINE_END}`,
      "im",
    ),
    resetAt: wallClockReset,
  },
  {
    // 5-hour limit reached ∙ resets 1am / Weekly limit reached ∙ resets Oct 9, 5pm
    pattern: new RegExp(
      `${LINE_START}(?:5-hour|Session|Weekly|Opus weekly|Sonnet weekly|Opus|Daily) limit reached${SEPARATOR}resets ${RESET_TIME}${LINE_END}`,
      "im",
    ),
    resetAt: wallClockReset,
  },
  {
    // You've hit your limit · resets 9:30pm (UTC) / You've hit your session limit · resets 3am ·
    // progress saved / You've hit your usage limit · resets … / You've hit your Fable limit ·
    // resets 5pm (UTC). Switch to another model to continue.
    pattern: new RegExp(
      `${LINE_START}You(?:['’]ve| have) hit your (?:(?:session|weekly|Opus|Sonnet|5-hour|daily|usage|[A-Z][A-Za-z0-9.-]{1,30}) )?limit${SEPARATOR}resets ${RESET_TIME}${LINE_END}`,
      "im",
    ),
    resetAt: wallClockReset,
  },
  {
    // You've reached your 5-hour usage limit · resets 3pm (Europe/Berlin) / You've reached your
    // weekly limit. Resets Oct 9 at 5pm.
    pattern: new RegExp(
      `${LINE_START}${REACHED_YOUR_LIMIT}(?:${SEPARATOR}|\\s*[.,]\\s*)resets(?: at)? ${RESET_TIME}${LINE_END}`,
      "im",
    ),
    resetAt: wallClockReset,
  },
  {
    // You've reached your 5-hour usage limit (no reset time, or one in a form not read here)
    pattern: new RegExp(
      `${LINE_START}${REACHED_YOUR_LIMIT}(?:${SEPARATOR}[^\\n]*)?${LINE_END}`,
      "im",
    ),
    resetAt: () => null,
  },
  {
    // You're out of extra usage · resets 9pm
    pattern: new RegExp(
      `${LINE_START}You(?:['’]re| are) out of extra usage${SEPARATOR}resets ${RESET_TIME}${LINE_END}`,
      "im",
    ),
    resetAt: wallClockReset,
  },
];

/** Blocks that waiting does not lift: an administrator's decision or a spend cap. */
const UNWAITABLE_PATTERNS: readonly RegExp[] = [
  /^[ \t]*(?:(?:API )?Error:\s*)?Your usage allocation has been disabled by your admin\b/im,
  /^[ \t]*(?:(?:API )?Error:\s*)?Your (?:group|organization|team)['’]s usage limit is set to \$0\b/im,
  /^[ \t]*(?:(?:API )?Error:\s*)?This service is disabled for your org(?:anization)?\b/im,
  /^[ \t]*(?:(?:API )?Error:\s*)?(?:Claude(?: Code)? )?usage (?:has been|is) disabled by your (?:organization['’]s )?admin(?:istrator)?\b/im,
  /^[ \t]*(?:(?:API )?Error:\s*)?You(?:['’]ve| have) (?:reached|hit) your (?:organization['’]s |monthly |workspace )?spend(?:ing)? (?:cap|limit)\b/im,
  /^[ \t]*(?:(?:API )?Error:\s*)?(?:Monthly |Workspace )?spend(?:ing)? (?:cap|limit) reached\b/im,
];

/** The line a match sits on, for the limit's message. */
function lineAround(text: string, index: number): string {
  const start = text.lastIndexOf("\n", index) + 1;
  const end = text.indexOf("\n", index);
  return text.slice(start, end === -1 ? text.length : end).trim();
}

/**
 * Recognises a usage limit in Claude Code's final output and reads when it resets:
 * `Claude AI usage limit reached|<epoch seconds>` (its message without the epoch), `Claude usage
 * limit reached. Your limit will reset at 7pm (Asia/Tokyo)`, `5-hour limit reached ∙ resets
 * 1am`, `You've hit your limit · resets 9:30pm (UTC)`, `You've hit your session limit · resets …
 * · progress saved`, `You've hit your usage limit · resets …`, `You've hit your Fable limit ·
 * resets …. Switch to another model to continue.`, `You've reached your 5-hour usage limit`
 * (with or without ` · resets 3pm (Europe/Berlin)`; a reset in a form not read here leaves
 * `resetAt` `null`), `You're out of extra usage · resets 9pm`. `Your group's usage limit is set
 * to $0` and `This service is disabled for your org` are blocks only an admin lifts. A
 * wall-clock reset is the next time after `now` that a clock in the message's zone (else
 * `options.timeZone`, else UTC) shows it. An admin's block or a spend cap is a limit that
 * waiting does not lift (`waitable: false`). A transient overload ("temporarily limiting
 * requests", see {@link isTransientOverload}) is not a limit: `null`.
 *
 * The messages must stand on a line of their own, as the CLI writes them, so prose that merely
 * mentions "the 5-hour limit" does not count. Pass only the final result text, never tool output.
 *
 * @param text - the agent's final output.
 * @param now - the current time, epoch milliseconds.
 * @param options - the zone of reset times that name none.
 * @returns the limit, or `null` when the text reports none.
 *
 * @example
 * ```ts
 * detectUsageLimit("You've hit your limit · resets 9:30pm (UTC)", Date.UTC(2026, 0, 1, 12));
 * // { resetAt: Date.UTC(2026, 0, 1, 21, 30), waitable: true, message: "You've hit your limit · resets 9:30pm (UTC)" }
 * ```
 */
export function detectUsageLimit(
  text: string,
  now: number,
  options?: DetectUsageLimitOptions | null,
): UsageLimit | null {
  if (isTransientOverload(text)) return null;
  const configuredZone = options?.timeZone ?? "UTC";
  const timeZone = isKnownTimeZone(configuredZone) ? configuredZone : "UTC";
  for (const pattern of UNWAITABLE_PATTERNS) {
    const match = pattern.exec(text);
    if (match !== null) {
      return { resetAt: null, waitable: false, message: lineAround(text, match.index) };
    }
  }
  for (const shape of WAITABLE_SHAPES) {
    const match = shape.pattern.exec(text);
    if (match === null) continue;
    const resetAt = shape.resetAt(match.groups ?? {}, now, timeZone);
    // `…|1796116042` is for machines: the reset is in `resetAt`, the message is for people.
    const message = match[0].trim().replace(/\|\d{9,11}$/, "");
    return { resetAt, waitable: true, message };
  }
  return null;
}

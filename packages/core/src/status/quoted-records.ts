import { stripListMarker } from "./markup.js";

/**
 * Names of the records an answer quotes or lists rather than states: a changelog, release
 * notes, commits, a git log.
 */
const RECORD_NAME =
  /\b(?:change ?logs?|release notes|commits|commit (?:log|history|messages?)|git (?:log|history))\b/i;

/**
 * A heading that names a release, as changelogs write it: `[1.2.0] - 2026-01-15`, `1.2.0`,
 * `v2.0`, `Version 2`, `[Unreleased]`. A bare `2.1` is a section number, not a release.
 */
const RELEASE_HEADING =
  /^(?:\[v?\d+(?:\.\d+)*(?:[-+][\w.]*)?\]|(?:version|release) v?\d+(?:\.\d+)*|v\d+(?:\.\d+)*|\d+\.\d+\.\d+|\[?unreleased\]?)(?=[\s:(-]|$)/i;

/** A commit id starting a line, as `git log --oneline` prints it: 7 to 40 lower-case hex digits. */
const COMMIT_ID = /^[0-9a-f]{7,40}\b/;

/** The words of a line: no heading marks, list bullet, task box, emphasis or code marks. */
function plainLine(line: string): string {
  return stripListMarker(line)
    .replace(/^\s*#{1,6}(?=\s|$)/, "")
    .replace(/^\s*\[[ xX]\]\s+/, "")
    .replace(/[*_`~]/g, "")
    .trim();
}

/**
 * Whether a heading opens a section of quoted records: it names a changelog, release notes or
 * commits (`## Changelog`, `### Recent commits`), or a release (`## [1.2.0] - 2026-01-15`,
 * `## v2.0.0`, `## [Unreleased]`). Sub-headings of such a section (Keep a Changelog's `### Added`,
 * `### Fixed`) belong to it; see {@link RecordSections}.
 *
 * @param heading - the heading's line as written.
 * @returns `true` when the heading's section holds records.
 */
export function isRecordHeading(heading: string): boolean {
  const words = plainLine(heading);
  return RECORD_NAME.test(words) || RELEASE_HEADING.test(words);
}

/**
 * Whether a paragraph introduces the list after it as quoted records: its last line names a
 * changelog, release notes or commits and ends in `:` ("Here is the CHANGELOG:", "Recent
 * commits:", "git log --oneline:").
 *
 * @param lastLine - the paragraph's last line as written.
 * @returns `true` when the list that follows is quoted.
 */
export function introducesRecords(lastLine: string): boolean {
  const words = plainLine(lastLine);
  return words.endsWith(":") && RECORD_NAME.test(words);
}

/**
 * Whether a list item is a commit line: it starts with a commit id (7 to 40 lower-case hex
 * digits, at least one a digit and one a letter), as `git log --oneline` prints it:
 * `a1b2c3d All tasks finished`.
 *
 * @param firstLine - the item's first line as written, bullet included.
 * @returns `true` when the item is a commit line.
 */
export function isCommitLine(firstLine: string): boolean {
  const id = COMMIT_ID.exec(plainLine(firstLine))?.[0];
  return id !== undefined && /\d/.test(id) && /[a-f]/.test(id);
}

/**
 * The headings open at a point of an answer, read in order, and whether that point is in a
 * section of quoted records (see {@link isRecordHeading}).
 */
export class RecordSections {
  /** The open headings, outermost first: their depth and whether each opens records. */
  private readonly open: { readonly depth: number; readonly records: boolean }[] = [];

  /**
   * Reads a top-level heading: it closes the sections of its depth or deeper and opens its own.
   *
   * @param depth - the heading's depth, 1 to 6.
   * @param heading - the heading's line as written.
   */
  enter(depth: number, heading: string): void {
    while ((this.open[this.open.length - 1]?.depth ?? 0) >= depth) this.open.pop();
    this.open.push({ depth, records: isRecordHeading(heading) });
  }

  /** Whether the point after the headings read so far is in a section of records. */
  get inRecords(): boolean {
    return this.open.some((section) => section.records);
  }
}

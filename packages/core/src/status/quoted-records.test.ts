import { describe, expect, it } from "vitest";
import {
  introducesRecords,
  isCommitLine,
  isRecordHeading,
  RecordSections,
} from "./quoted-records.js";

describe("isRecordHeading", () => {
  it.each([
    "## Changelog",
    "# CHANGELOG",
    "## Change log",
    "### Release notes",
    "## Recent commits",
    "## Commit messages",
    "## [1.2.0] - 2026-01-15",
    "## [2.0.0-beta.1]",
    "## 1.2.0 (2026-01-15)",
    "## v2.0",
    "## Version 3",
    "## [Unreleased]",
    "## **Changelog**",
  ])("reads %j as a section of records", (heading) => {
    expect(isRecordHeading(heading)).toBe(true);
  });

  it.each([
    "## Summary",
    "## What I changed",
    "## Changes",
    "### Added",
    "## 2.1 Parser",
    "## 2. Next steps",
    "## Verification",
  ])("reads %j as the agent's own section", (heading) => {
    expect(isRecordHeading(heading)).toBe(false);
  });
});

describe("introducesRecords", () => {
  it.each([
    "Here is the CHANGELOG:",
    "I added this to [CHANGELOG.md](CHANGELOG.md):",
    "Recent commits:",
    "The release notes now read:",
    "From the **git log**:",
  ])("reads %j as introducing records", (line) => {
    expect(introducesRecords(line)).toBe(true);
  });

  it.each([
    "What I did:",
    "I updated the changelog.",
    "Commits are squashed on merge.",
    "Next steps:",
  ])("does not read %j as introducing records", (line) => {
    expect(introducesRecords(line)).toBe(false);
  });
});

describe("isCommitLine", () => {
  it.each([
    "- a1b2c3d All tasks finished",
    "* `9f8e7d6` Add the parser",
    "1. 3f2a9c1d7e8b4a6f0c2d9e1b7a3f5c8d0e2b4a6f Fix the lexer",
  ])("reads %j as a commit line", (line) => {
    expect(isCommitLine(line)).toBe(true);
  });

  it.each([
    "- All tasks finished",
    "- 1234567 rows imported",
    "- defaced the old banner",
    "- abc123 is too short",
    "- A1B2C3D in capitals",
  ])("does not read %j as a commit line", (line) => {
    expect(isCommitLine(line)).toBe(false);
  });
});

describe("RecordSections", () => {
  it("keeps a sub-heading in its section of records, and ends the section at its depth", () => {
    const sections = new RecordSections();
    sections.enter(1, "# Summary");
    expect(sections.inRecords).toBe(false);
    sections.enter(2, "## [1.2.0] - 2026-01-15");
    sections.enter(3, "### Added");
    expect(sections.inRecords).toBe(true);
    sections.enter(2, "## Next steps");
    expect(sections.inRecords).toBe(false);
  });
});

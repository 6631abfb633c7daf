import { describe, expect, it } from "vitest";
import { analyzeResponse } from "../status/analyze-response.js";
import {
  type ExitSignalOrigin,
  type ResolvedExitSignal,
  resolveExitSignal,
} from "./exit-signal.js";

type Plan = Parameters<typeof resolveExitSignal>[0];
type Answer = Parameters<typeof resolveExitSignal>[1];

const said = (value: boolean, source: "status_block" | "promise_tag" = "status_block"): Answer => ({
  exitSignal: { value, source },
});
const silent: Answer = { exitSignal: null };
const resolved = (value: boolean, source: ExitSignalOrigin | null): ResolvedExitSignal => ({
  value,
  source,
});

describe("resolveExitSignal: the plan's RALPH_STATUS and the agent's last answer", () => {
  const cases: { name: string; plan: Plan; answer: Answer; expected: ResolvedExitSignal }[] = [
    {
      name: "EXIT_SIGNAL: false in the answer beats true in the plan",
      plan: { exitSignal: true },
      answer: said(false),
      expected: resolved(false, "status_block"),
    },
    {
      name: "true in the answer beats false in the plan",
      plan: { exitSignal: false },
      answer: said(true),
      expected: resolved(true, "status_block"),
    },
    {
      name: "a kept completion promise is a true from promise_tag",
      plan: { exitSignal: false },
      answer: said(true, "promise_tag"),
      expected: resolved(true, "promise_tag"),
    },
    {
      name: "the plan's true is used when the answer says nothing",
      plan: { exitSignal: true },
      answer: silent,
      expected: resolved(true, "plan"),
    },
    {
      name: "the plan's false is used when the answer says nothing",
      plan: { exitSignal: false },
      answer: silent,
      expected: resolved(false, "plan"),
    },
    {
      name: "the plan's true is used before the first answer",
      plan: { exitSignal: true },
      answer: null,
      expected: resolved(true, "plan"),
    },
    {
      name: "a plan without EXIT_SIGNAL and a silent answer: false, no source",
      plan: { exitSignal: null },
      answer: silent,
      expected: resolved(false, null),
    },
    {
      name: "no RALPH_STATUS section and no answer: false, no source",
      plan: null,
      answer: undefined,
      expected: resolved(false, null),
    },
    {
      name: "no RALPH_STATUS section: the answer decides",
      plan: undefined,
      answer: said(true),
      expected: resolved(true, "status_block"),
    },
  ];

  it.each(cases)("$name", ({ plan, answer, expected }) => {
    expect(resolveExitSignal(plan, answer)).toEqual(expected);
  });
});

describe("resolveExitSignal on real answers", () => {
  const block = (fields: string) =>
    `Work for this iteration is done.\n\n---RALPH_STATUS---\n${fields}\n---END_RALPH_STATUS---\n`;

  const cases: { name: string; text: string; plan: Plan; expected: ResolvedExitSignal }[] = [
    {
      name: "STATUS: COMPLETE with EXIT_SIGNAL: false → false, whatever the plan says",
      text: block("STATUS: COMPLETE\nEXIT_SIGNAL: false"),
      plan: { exitSignal: true },
      expected: resolved(false, "status_block"),
    },
    {
      name: "STATUS: IN_PROGRESS with EXIT_SIGNAL: true → false (going on can be undone)",
      text: block("STATUS: IN_PROGRESS\nEXIT_SIGNAL: true"),
      plan: { exitSignal: true },
      expected: resolved(false, "status_block"),
    },
    {
      name: "STATUS: COMPLETE alone is no exit signal: the plan's value is used",
      text: block("STATUS: COMPLETE"),
      plan: { exitSignal: true },
      expected: resolved(true, "plan"),
    },
    {
      name: "EXIT_SIGNAL: true in the block → true",
      text: block("STATUS: COMPLETE\nEXIT_SIGNAL: true"),
      plan: { exitSignal: false },
      expected: resolved(true, "status_block"),
    },
    {
      name: "an answer without a block leaves it to the plan",
      text: "I refactored the hashing helper.",
      plan: { exitSignal: false },
      expected: resolved(false, "plan"),
    },
  ];

  it.each(cases)("$name", ({ text, plan, expected }) => {
    expect(resolveExitSignal(plan, analyzeResponse(text))).toEqual(expected);
  });

  it("a completion promise counts only when the caller names it", () => {
    const text = "Everything is implemented and tested. <promise>DONE</promise>";
    expect(resolveExitSignal(null, analyzeResponse(text))).toEqual(resolved(false, null));
    expect(resolveExitSignal(null, analyzeResponse(text, { completionPromise: "DONE" }))).toEqual(
      resolved(true, "promise_tag"),
    );
  });
});

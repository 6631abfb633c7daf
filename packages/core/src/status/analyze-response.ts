import { analysedWindow, rangesInWindow } from "./analysed-window.js";
import { findBlockedStatement } from "./blocked.js";
import { findCompletionPhrases } from "./completion-phrases.js";
import { findErrorFingerprint } from "./error-fingerprint.js";
import { locateStatusBlocks } from "./locate-status-blocks.js";
import { readLastClosedBlock } from "./parse-status-block.js";
import { findPermissionDenials, mergePermissionDenials } from "./permission-denials.js";
import { findPromiseTags } from "./promise-tag.js";
import { extractProse } from "./prose.js";
import { findQuestions } from "./questions.js";
import type { AnalyzeResponseOptions, ResponseSignals } from "./response-signals.js";
import { type PrecedenceInput, resolveDoneSignal, resolveExitSignal } from "./signal-precedence.js";
import { looksTestOnly } from "./test-only.js";
import { blankRanges } from "./text-mask.js";
import { findToolTags } from "./tool-output.js";

/** A completion promise compared as the convention does: spaces collapsed, case kept. */
function normalizePromise(promise: string | null | undefined): string | null {
  const normalized = promise?.replace(/\s+/g, " ").trim() ?? "";
  return normalized === "" ? null : normalized;
}

/**
 * Reads the signals one iteration's answer gives the exit policy. Pure: the same text and
 * options always give the same signals.
 *
 * Only the agent's prose speaks for it: completion statements, questions, blocked statements,
 * promise tags and permission reports in code blocks, inline code, block quotes, tool output
 * or status blocks are not the agent's words and do not count. Completion statements that are
 * negated, conditional, directives or questions do not count either. Nor do completion
 * statements, questions and blocked statements in the records an answer quotes, which say
 * what was done once, not how the job stands now: the lists introduced as a changelog or
 * commits ("Recent commits:"), the lists of a changelog's sections (`## [1.2.0]`, `### Added`)
 * and list items that start with a commit id (`- a1b2c3d All tasks finished`). A paragraph
 * after them ("All tasks are finished.") and any other list item still count. Error lines are
 * read everywhere but in status blocks, since errors live in code blocks and tool output.
 *
 * Only the end of a long answer is analysed: its last 64 KiB (65,536 UTF-16 code units), from
 * the first line that starts in them, where the agent's conclusion is. The status block is
 * found in the whole answer. The time taken grows linearly with the length of the answer,
 * whatever its shape, and is bounded for the analysed part.
 *
 * @param text - the agent's final answer (never the prompt).
 * @param options - the completion promise, the executor's permission denials, extra phrases.
 * @returns the signals; see {@link ResponseSignals} for when each is set.
 * @example
 * ```ts
 * const signals = analyzeResponse(
 *   `All tasks are complete and the tests pass.
 *
 * ---RALPH_STATUS---
 * STATUS: COMPLETE
 * EXIT_SIGNAL: false
 * ---END_RALPH_STATUS---`,
 * );
 * signals.exitSignal; // { value: false, source: "status_block" }
 * signals.doneSignal; // false: EXIT_SIGNAL: false beats STATUS: COMPLETE and the prose
 * signals.completionPhrases; // ["All tasks are complete"]
 * signals.contradictions.length; // 2
 * ```
 */
export function analyzeResponse(
  text: string,
  options?: AnalyzeResponseOptions | null,
): ResponseSignals {
  const statusBlocks = locateStatusBlocks(text);
  const statusBlock = readLastClosedBlock(text, statusBlocks);
  const window = analysedWindow(text);
  const statusRanges = rangesInWindow(statusBlocks, window);
  const prose = extractProse(window.text, {
    excluded: [...statusRanges, ...rangesInWindow(findToolTags(text), window)],
    openFence: window.openFence,
  });
  const withoutStatusBlocks = blankRanges(window.text, statusRanges);
  // What the agent states about the job now: its prose less the records it quotes.
  const statements = prose.sentences.filter((sentence) => !sentence.quoted);

  const promises = findPromiseTags(prose.text);
  const expectedPromise = normalizePromise(options?.completionPromise);
  const completionPhrases = findCompletionPhrases(
    statements,
    options?.extraCompletionPhrases ?? [],
  );
  const contradictions: string[] = [];
  const precedence: PrecedenceInput = {
    statusBlock,
    promiseKept: expectedPromise !== null && promises.includes(expectedPromise),
    completionIndicatorCount: completionPhrases.length,
    contradictions,
  };
  const exitSignal = resolveExitSignal(precedence);
  const doneSignal = resolveDoneSignal(precedence, exitSignal);

  const workType = statusBlock?.workType ?? null;
  const questions = findQuestions(statements);
  const isProse = (offset: number): boolean => /\S/.test(prose.text.charAt(offset));
  const error = findErrorFingerprint(withoutStatusBlocks, isProse);
  const blockedReason = findBlockedStatement(statements);

  return {
    statusBlock,
    exitSignal,
    doneSignal,
    testOnly:
      workType !== null
        ? workType === "TESTING"
        : looksTestOnly(withoutStatusBlocks, prose.sentences),
    completionPhrases,
    completionIndicatorCount: completionPhrases.length,
    blocked: statusBlock?.status === "BLOCKED" || blockedReason !== null,
    blockedReason,
    questions,
    askingQuestions: questions.length > 0,
    errorFingerprint: error?.fingerprint ?? null,
    errorSummary: error?.summary ?? null,
    permissionDenials: mergePermissionDenials(
      options?.permissionDenials ?? [],
      findPermissionDenials(prose.sentences, window.text),
    ),
    promiseTag: promises[promises.length - 1] ?? null,
    contradictions,
  };
}

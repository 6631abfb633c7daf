import type { VerificationResult } from "@loop/core";

/** How one requirement fared, as a line of `verifier.log` records it. */
export interface VerifierMatchRecord {
  /** The requirement's text. */
  readonly requirement: string;
  /** Its plan section (`Acceptance Criteria`…), or `null` when unknown. */
  readonly section: string | null;
  /** The id of the best matching task, or `null` when no task shares a word with it. */
  readonly task: string | null;
  /** Every task behind `score`: the best one, or the tasks that meet it together. */
  readonly tasks: readonly string[];
  /** The similarity score, from 0 to 1. */
  readonly score: number;
  /** Whether the requirement is met (matched at the threshold, or checked in the plan). */
  readonly met: boolean;
}

/** A user concern, as a line of `verifier.log` records it. */
export interface VerifierConcernRecord {
  /** `issue`, `blocker` or `correction`. */
  readonly kind: string;
  /** The sentence that raised it. */
  readonly text: string;
  /** The phrase recognised in it. */
  readonly phrase: string;
}

/** One line of `verifier.log`: the verdict of one verification, snake_case as persisted. */
export interface VerifierRecord {
  /** When the verification ran, ISO 8601. */
  readonly timestamp: string;
  /** The terminal whose loop ran it. */
  readonly terminal_id: string;
  /** Every requirement met and no concern unresolved. */
  readonly passed: boolean;
  /** Every requirement, in the plan's order. */
  readonly matches: readonly VerifierMatchRecord[];
  /** The texts of the requirements not met. */
  readonly unmet: readonly string[];
  /** The unresolved user concerns. */
  readonly concerns: readonly VerifierConcernRecord[];
}

/** One verification to record in `verifier.log`. */
export interface VerifierLogEntry {
  /** The terminal whose loop ran the verification. */
  readonly terminalId: string;
  /** The verdict, as `verifyCompletion` returns it. */
  readonly result: VerificationResult;
  /** When it ran; default now. */
  readonly timestamp?: Date | string | undefined;
}

/**
 * Turns a verification into its `verifier.log` line: requirements and tasks reduced to their
 * texts and ids, keys in snake_case.
 *
 * @param entry - the terminal, the verdict and the time.
 * @returns the record to write.
 */
export function toVerifierRecord(entry: VerifierLogEntry): VerifierRecord {
  const { result } = entry;
  const timestamp =
    entry.timestamp === undefined
      ? new Date().toISOString()
      : typeof entry.timestamp === "string"
        ? entry.timestamp
        : entry.timestamp.toISOString();
  return {
    timestamp,
    terminal_id: entry.terminalId,
    passed: result.passed,
    matches: result.matches.map((match) => ({
      requirement: match.requirement.text,
      section: match.requirement.section ?? null,
      task: match.tasks[0]?.id ?? null,
      tasks: match.tasks.map((task) => task.id),
      score: match.score,
      met: match.met,
    })),
    unmet: result.unmet.map((requirement) => requirement.text),
    concerns: result.concerns.map(({ kind, text, phrase }) => ({ kind, text, phrase })),
  };
}

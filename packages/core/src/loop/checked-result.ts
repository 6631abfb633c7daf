import type { ExecutionResult } from "./executor.js";

/**
 * The longest usage-limit wait the loop accepts from an agent's report: a reset further away
 * (a weekly limit is at most 7 days off) is waited out for this long at most, and said so.
 */
export const MAX_USAGE_LIMIT_WAIT_MS = 8 * 24 * 60 * 60_000;

/** What {@link checkResult} returns: the result with every implausible value dealt with. */
export interface CheckedResult {
  /** The result: implausible values left out, a far reset capped. */
  readonly result: ExecutionResult;
  /** One sentence per value dealt with, for the decision log. */
  readonly problems: readonly string[];
}

const isCount = (value: number) => Number.isFinite(value) && value >= 0;

/**
 * Checks what an executor reported before the loop acts on it: numbers come from the agent's
 * own output (a stream the agent — or a tool's text in it — controls), so a negative or
 * infinite cost, token count or file count is left out, an unreadable reset time is taken as
 * unknown, and a reset more than {@link MAX_USAGE_LIMIT_WAIT_MS} away is capped there. None of
 * them ends the loop; each is reported in `problems`.
 *
 * @param result - what the executor returned.
 * @param now - the current time, epoch milliseconds.
 */
export function checkResult(result: ExecutionResult, now: number): CheckedResult {
  const problems: string[] = [];
  let checked: ExecutionResult = result;
  const drop = (key: "costUsd" | "tokens" | "filesChanged", problem: string) => {
    const { [key]: _dropped, ...rest } = checked;
    checked = rest;
    problems.push(problem);
  };
  const { costUsd, tokens, filesChanged, usageLimit } = result;
  if (costUsd !== undefined && !isCount(costUsd)) {
    drop("costUsd", `the agent reported a cost of ${costUsd} USD, which no run costs: left out`);
  }
  if (tokens !== undefined && !(isCount(tokens.input) && isCount(tokens.output))) {
    drop(
      "tokens",
      `the agent reported ${tokens.input} input and ${tokens.output} output tokens: left out`,
    );
  }
  if (filesChanged !== undefined && !(Number.isSafeInteger(filesChanged) && filesChanged >= 0)) {
    drop("filesChanged", `the executor reported ${filesChanged} files changed: left out`);
  }
  const resetAt = usageLimit?.resetAt ?? null;
  if (usageLimit !== undefined && resetAt !== null) {
    if (!Number.isFinite(resetAt)) {
      problems.push(`the usage limit's reset time ${resetAt} is not a time: taken as unknown`);
      checked = { ...checked, usageLimit: { ...usageLimit, resetAt: null } };
    } else if (resetAt > now + MAX_USAGE_LIMIT_WAIT_MS) {
      const days = MAX_USAGE_LIMIT_WAIT_MS / (24 * 60 * 60_000);
      problems.push(
        `the usage limit resets more than ${days} days from now (at ${resetAt} ms since 1970): waiting ${days} days at most`,
      );
      checked = {
        ...checked,
        usageLimit: { ...usageLimit, resetAt: now + MAX_USAGE_LIMIT_WAIT_MS },
      };
    }
  }
  return { result: checked, problems };
}

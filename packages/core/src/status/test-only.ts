import { isQualifiedBefore } from "./negation.js";
import type { ProseSentence } from "./sentences.js";

/** Signs that tests were run: test commands, runners and talk of running the suite. */
const TEST_ACTIVITY: readonly RegExp[] = [
  /\b(?:npm|pnpm|yarn|bun)(?: run)? test\b/i,
  /\b(?:npx |pnpm |yarn )?(?:vitest|jest|mocha|pytest|bats|rspec|phpunit|tox|nox)\b/i,
  /\b(?:cargo|go|mix|dotnet|swift|deno|bun|gradle|mvn|make) test\b/i,
  /\b(?:ran|run|running|re-ran|reran|re-running|rerunning|executed|executing) (?:the )?(?:full |whole |entire |unit |integration |e2e |end-to-end )?(?:test suite|tests|test|specs|suite)\b/i,
  /\btest suite\b/i,
];

/** Signs that this run changed something: code, docs, configuration. */
const IMPLEMENTATION_WORDS =
  /\b(?:implement|implemented|implementing|add|added|adding|create|created|creating|wrote|written|writing|fix|fixed|fixing|refactor|refactored|refactoring|update|updated|updating|modify|modified|modifying|change|changed|changing|edit|edited|editing|built|introduced|removed|deleted|renamed|moved|extracted|replaced|rewrote|rewritten)\b/gi;

/**
 * The test-saturation detector of ralph_loop.sh, for answers without a `WORK_TYPE`: the
 * answer shows tests being run (a test command or runner anywhere outside status blocks, or
 * talk of running the suite) and its prose shows no sign of implementation (no "implemented",
 * "added", "fixed", "updated" … that is not negated: "no files were changed" is no change).
 *
 * @param text - the answer with its status blocks blanked (commands in code and tool output
 *   are evidence of running tests).
 * @param sentences - the prose sentences of the answer.
 * @returns `true` when the run only ran tests.
 */
export function looksTestOnly(text: string, sentences: readonly ProseSentence[]): boolean {
  if (!TEST_ACTIVITY.some((pattern) => pattern.test(text))) return false;
  return !sentences.some((sentence) => {
    for (const match of sentence.text.matchAll(IMPLEMENTATION_WORDS)) {
      if (!isQualifiedBefore(sentence.text, match.index)) return true;
    }
    return false;
  });
}

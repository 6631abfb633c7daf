import { isQualifiedBefore } from "./negation.js";
import type { ProseSentence } from "./sentences.js";

/** Statements that the agent cannot go on without someone. */
const BLOCKED_STATEMENTS: readonly RegExp[] = [
  /\b(?:I|we)(?:'m| am|'re| are) (?:currently |now |still |completely |fully )?(?:blocked|stuck)\b/i,
  /\b(?:cannot|can't|can not|unable to) (?:proceed|continue|go on|make (?:any )?(?:further )?progress)\b/i,
  /\b(?:need|needs|require|requires|requiring|needing) (?:a |the )?(?:human|manual|your|user|user's) (?:input|intervention|decision|action|help|approval|guidance)\b/i,
  /\bwaiting (?:for|on) (?:a )?(?:human|user|your|manual) (?:input|decision|approval|action|intervention)\b/i,
  /\bhuman (?:input|intervention|decision|action) (?:is )?(?:required|needed)\b/i,
  /\bblocked on (?:a )?(?:human|user|your|manual) (?:input|decision|approval|action)\b/i,
];

/**
 * Whether the prose says, plainly, that the agent is blocked: "I am blocked", "I'm stuck",
 * "I cannot proceed without the API key", "this needs human input". Questions, negated and
 * conditional statements ("If you need human input, say so") do not count.
 *
 * @param sentences - the prose sentences of the answer.
 * @returns the first blocking statement, as read, or `null`.
 */
export function findBlockedStatement(sentences: readonly ProseSentence[]): string | null {
  for (const sentence of sentences) {
    if (/\?["')\]]*$/.test(sentence.text)) continue;
    for (const pattern of BLOCKED_STATEMENTS) {
      const match = pattern.exec(sentence.text);
      if (match === null) continue;
      if (!isQualifiedBefore(sentence.text, match.index)) {
        return sentence.text;
      }
    }
  }
  return null;
}

import * as z from "zod";
import { redactSecrets } from "../observe/redact-secrets.js";
import type { ResponseSignals } from "../status/response-signals.js";
import { expected, sectionField, textField } from "./state-fields.js";

/**
 * What the agent said in the iteration that stopped the loop as `blocked` or `needs_input`: why
 * it is blocked, the questions it asked, and its status block's `RECOMMENDATION`. Kept in
 * `loop_state.json`'s `run` and in the `loop_exit` event, so the person who answers does not
 * have to dig through the agent's output.
 */
export const AgentReportSchema = sectionField(
  {
    reason: textField(
      "Why the agent says it is blocked, in its words; null when it gave no such sentence.",
    ).nullable(),
    questions: z
      .array(textField("A question."), expected("a list of strings"))
      .describe("The questions the agent asked, unanswered."),
    recommendation: textField(
      "The status block's RECOMMENDATION: what the agent says to do next; null when none.",
    ).nullable(),
  },
  "What the agent said when it stopped the loop as blocked or needing input.",
);

/** `loop_state.json`'s `run.agent_report` and `loop_exit`'s `agent_report`. */
export type AgentReport = z.output<typeof AgentReportSchema>;

/**
 * The {@link AgentReport} of one iteration's answer: its blocking sentence, its questions and
 * its RECOMMENDATION, as `analyzeResponse` read them.
 *
 * @param signals - the analysis of the agent's answer.
 * @returns the report; empty fields are `null` or `[]`.
 */
export function agentReportOf(
  signals: Pick<ResponseSignals, "blockedReason" | "questions" | "statusBlock">,
): AgentReport {
  const recommendation = signals.statusBlock?.recommendation ?? null;
  return {
    reason: signals.blockedReason === null ? null : redactSecrets(signals.blockedReason),
    questions: signals.questions.map(redactSecrets),
    recommendation: recommendation === null ? null : redactSecrets(recommendation),
  };
}

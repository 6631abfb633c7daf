/**
 * Practical verification: match the plan's requirements (Acceptance Criteria, Success
 * Metrics, Constraints) to the completed tasks by fuzzy similarity, find the user's
 * unresolved concerns in the last chat turns, and decide whether the work passes.
 *
 * @module
 */

export type { ChatTurn } from "./chat-turn.js";
export type {
  ParseClaudeTranscriptOptions,
  SkippedLine,
  SkippedLineReason,
} from "./claude-transcript.js";
export { parseClaudeTranscript } from "./claude-transcript.js";
export type { ConcernKind } from "./concern-phrases.js";
export { contentWords } from "./content-words.js";
export type { MatchRequirementsOptions } from "./match-requirements.js";
export { matchRequirements } from "./match-requirements.js";
export type {
  CompletedTaskInput,
  RequirementInput,
  RequirementMatch,
  TaskCandidate,
} from "./requirement-match.js";
export { similarity } from "./similarity.js";
export type { Concern, ExtractUserConcernsOptions } from "./user-concerns.js";
export { extractUserConcerns } from "./user-concerns.js";
export type { VerificationResult, VerifyCompletionInput } from "./verify-completion.js";
export { verifyCompletion } from "./verify-completion.js";

import { isQualifiedBefore } from "./negation.js";
import type { ProseSentence } from "./sentences.js";

/** A sentence that ends in a question mark, closing quotes or brackets aside. */
const QUESTION_END = /\?["')\]]*$/;

/** Signs that a question is put to the reader, not to the agent itself. */
const ADDRESSED_TO_USER: readonly RegExp[] = [
  /\byou(?:r|rs|'d|'re|'ll|'ve)?\b/i, // Which approach do you prefer? Would you like me to …?
  /^(?:so |and |also |then )?(?:should|shall|may|can|could|must|do) (?:I|we)\b/i, // Should I use A or B?
  /\b(?:want|like|need) me to\b/i, // Want me to continue?
  /\b(?:ok|okay|alright|fine|acceptable) (?:if|to|with)\b/i, // Is it okay if I delete it?
  /^(?:proceed|continue|go ahead|ready to proceed)\?/i, // Proceed?
  /\bany (?:preferences?|objections?|thoughts|feedback|concerns)\b/i,
];

/** A sentence that answers the question before it: the question was rhetorical. */
const ANSWER_START =
  /^(?:because|since|the answer|answer:|yes\b|no\b|nope|yep|turns out|that's because|it's because|simple|easy|here's|the reason|I'll\b|I will\b|I'm going to\b|let me(?! know)\b|let's\b|going with\b|I chose\b|I decided\b|I went with\b|so I\b)/i;

/** Requests for the user's input that do not end in a question mark. */
const REQUESTS: readonly RegExp[] = [
  /\bplease (?:confirm|advise|decide|choose|pick|select|clarify|specify|approve|respond|reply|answer|let me know|tell me|review and (?:confirm|approve))\b/i,
  /\blet me know (?:which|what|whether|how|your|if (?:I should|you (?:want|would like|'d like|prefer) me to|(?:this|that|the) (?:approach|plan|option|direction)))\b/i,
  /\bI need (?:your|a human's|human|user|the user's) (?:decision|input|confirmation|approval|guidance|feedback|answer|clarification|go-ahead|choice)\b/i,
  /\bI need you to (?:confirm|decide|choose|clarify|approve|tell|provide|answer|review|pick)\b/i,
  /\b(?:awaiting|waiting for|waiting on) (?:your|the user's|user|human) (?:decision|input|confirmation|approval|reply|response|answer|feedback|go-ahead|choice)\b/i,
];

/** Whether a sentence asks the user something with a question mark. */
function isQuestionToUser(sentence: ProseSentence, next: ProseSentence | undefined): boolean {
  if (!QUESTION_END.test(sentence.text)) return false;
  if (!ADDRESSED_TO_USER.some((pattern) => pattern.test(sentence.text))) return false;
  const answered = next?.paragraph === sentence.paragraph && ANSWER_START.test(next.text);
  return !answered;
}

/** Whether a sentence requests the user's input without a question mark. */
function isRequestToUser(sentence: ProseSentence): boolean {
  return REQUESTS.some((pattern) => {
    const match = pattern.exec(sentence.text);
    return match !== null && !isQualifiedBefore(sentence.text, match.index);
  });
}

/**
 * Finds what the agent asks the user. A sentence counts when
 * - it ends in `?` and is put to the reader ("Should I use A or B?", "Which approach do you
 *   prefer?", "Would you like me to …?"), and the next sentence of its paragraph does not answer
 *   it ("Why does this fail? Because …" is rhetorical, and "What's next? TASK-003." is put to
 *   nobody), or
 * - it requests input without `?` ("Please confirm before I proceed", "Let me know which option
 *   you want", "I need your decision on …").
 * Only prose is read: questions in code, quotes and tool output are not the agent's.
 *
 * @param sentences - the prose sentences of the answer.
 * @returns the asking sentences, as read (markup removed), each once, in order.
 */
export function findQuestions(sentences: readonly ProseSentence[]): string[] {
  const questions = new Set<string>();
  sentences.forEach((sentence, index) => {
    if (isQuestionToUser(sentence, sentences[index + 1]) || isRequestToUser(sentence)) {
      questions.add(sentence.text);
    }
  });
  return [...questions];
}

import type { ChatTurn } from "./chat-turn.js";
import { CONCERN_PHRASES, type ConcernKind, RESOLUTION_PHRASES } from "./concern-phrases.js";
import { maskQuotedText } from "./mask-quoted-text.js";
import {
  isConditional,
  isHedged,
  isNegated,
  isYesNoQuestion,
  type PhraseContext,
} from "./phrase-context.js";
import { type SentenceSpan, splitSentences } from "./split-sentences.js";
import { checkCount } from "./verification-options.js";

/** The default chat lookback: the config's `verification.lookback_turns`. */
export const DEFAULT_LOOKBACK_TURNS = 10;

/** An unresolved issue, blocker or correction the user raised. */
export interface Concern {
  /** `issue` (something is wrong), `blocker` (cannot go on), `correction` (do it differently). */
  readonly kind: ConcernKind;
  /** The sentence that raised it, as the user wrote it (white space collapsed). */
  readonly text: string;
  /** The phrase that was recognised in it, as written ("not working", "blocked by"). */
  readonly phrase: string;
  /** Index of the user's turn in the `turns` given to {@link extractUserConcerns}. */
  readonly turnIndex: number;
}

/** Options of {@link extractUserConcerns}. */
export interface ExtractUserConcernsOptions {
  /**
   * How many of the last turns (user and assistant turns both count) are read: the config's
   * `verification.lookback_turns`. Default 10; 0 reads none.
   */
  readonly lookbackTurns?: number | undefined;
}

/** A phrase found in a sentence. */
interface Hit {
  readonly kind: ConcernKind | "resolution";
  readonly start: number;
  readonly end: number;
}

/** A phrase that raises a concern. */
interface ConcernHit extends Hit {
  readonly kind: ConcernKind;
}

function isConcernHit(hit: Hit): hit is ConcernHit {
  return hit.kind !== "resolution";
}

/** Lowercase with `'` for every apostrophe, keeping every character at its index. */
function lowercaseInPlace(text: string): string {
  return Array.from(text, (character) => {
    const lower = character.toLowerCase();
    return lower.length === character.length ? lower : character;
  })
    .join("")
    .replace(/[\u2018\u2019\u02bc]/g, "'");
}

/** Every phrase in the sentence; where phrases overlap, the earliest, then longest, wins. */
function findPhrases(sentence: string): Hit[] {
  const all: Hit[] = [];
  const add = (kind: Hit["kind"], pattern: RegExp) => {
    for (const match of sentence.matchAll(pattern)) {
      all.push({ kind, start: match.index, end: match.index + match[0].length });
    }
  };
  for (const { kind, pattern } of CONCERN_PHRASES) add(kind, pattern);
  for (const pattern of RESOLUTION_PHRASES) add("resolution", pattern);
  all.sort((left, right) => left.start - right.start || right.end - left.end);
  const kept: Hit[] = [];
  for (const hit of all) {
    const last = kept.at(-1);
    if (last === undefined || hit.start >= last.end) kept.push(hit);
  }
  return kept;
}

/** Whether a phrase is asserted: not negated, not a condition, not a guess. */
function isAsserted(hit: Hit, sentence: string): boolean {
  const context: PhraseContext = { sentence, start: hit.start };
  if (isNegated(context)) return false;
  if (isConditional(context, hit.kind === "correction")) return false;
  return !((hit.kind === "issue" || hit.kind === "resolution") && isHedged(context));
}

/** What one sentence says: the concern it raises (if any) and whether it resolves. */
function readSentence(
  original: string,
  lowered: string,
  span: SentenceSpan,
  turnIndex: number,
): { readonly concern: Concern | null; readonly resolves: boolean } {
  const sentence = lowered.slice(span.start, span.end);
  if (isYesNoQuestion(sentence)) return { concern: null, resolves: false };
  let first: ConcernHit | null = null;
  let resolves = false;
  for (const hit of findPhrases(sentence)) {
    if (!isAsserted(hit, sentence)) continue;
    if (isConcernHit(hit)) {
      first ??= hit;
    } else {
      resolves = true;
      first = null; // "the failing test passes now": settled within the sentence
    }
  }
  if (first === null) return { concern: null, resolves };
  return {
    concern: {
      kind: first.kind,
      text: original.slice(span.start, span.end).replace(/\s+/g, " "),
      phrase: original.slice(span.start + first.start, span.start + first.end),
      turnIndex,
    },
    resolves,
  };
}

/** The concerns one user turn raises and whether it resolves earlier ones. */
function readUserTurn(
  text: string,
  turnIndex: number,
): { readonly concerns: Concern[]; readonly resolves: boolean } {
  const masked = maskQuotedText(text);
  const lowered = lowercaseInPlace(masked);
  const concerns: Concern[] = [];
  let resolves = false;
  for (const span of splitSentences(masked)) {
    const sentence = readSentence(text, lowered, span, turnIndex);
    if (sentence.concern !== null) concerns.push(sentence.concern);
    resolves ||= sentence.resolves;
  }
  return { concerns, resolves };
}

/**
 * Finds the user's unresolved concerns in the last turns of a conversation: issues ("this is
 * wrong", "not working", "doesn't work", "still failing", "it crashes"), blockers ("blocked
 * by", "can't proceed until", "waiting on") and corrections ("fix this", "that's not what I
 * asked", "should be X, not Y", "please change").
 *
 * Rules:
 * - only the last `lookbackTurns` turns are read (both roles count), and only user turns:
 *   the assistant never raises or resolves a concern;
 * - fenced and indented code, block quotes (`>`) and inline code are skipped: pasted logs and
 *   quotes say nothing by themselves;
 * - each sentence raises at most one concern, from its first asserted phrase. A phrase is not
 *   asserted when one of the three words before it in its clause negates it ("it's not
 *   broken", "no blockers"); when a conditional word comes before it in its clause ("if this
 *   is wrong, …", "once it's fixed") — for corrections anywhere before it in the sentence
 *   ("if the build breaks, fix it"); when an issue or resolution is hedged ("it might be
 *   broken", "it should work now"); or when its sentence is a yes/no question ("Is it still
 *   broken?"), requests excepted ("Can you fix this?");
 * - a user turn with an asserted resolution ("thanks, that works now", "fixed, looks good",
 *   "never mind") resolves every concern raised in earlier turns. In its own sentence, a
 *   resolution also settles the phrases before it ("the failing test passes now"), not those
 *   after it ("that works now, but the footer is still broken"); other sentences of that
 *   turn keep their concerns.
 *
 * @param turns - the conversation, oldest first.
 * @param options - `lookbackTurns`, default 10.
 * @returns the unresolved concerns, oldest first.
 * @throws {RangeError} when `lookbackTurns` is not an integer ≥ 0.
 * @example
 * ```ts
 * extractUserConcerns([
 *   { role: "user", text: "Login is still failing on Safari." },
 *   { role: "assistant", text: "Fixed the cookie flag." },
 * ]);
 * // [{ kind: "issue", text: "Login is still failing on Safari.", phrase: "failing", turnIndex: 0 }]
 * ```
 */
export function extractUserConcerns(
  turns: readonly ChatTurn[],
  options?: ExtractUserConcernsOptions | null,
): Concern[] {
  const lookbackTurns = checkCount(
    options?.lookbackTurns ?? DEFAULT_LOOKBACK_TURNS,
    "lookbackTurns",
    0,
    "extractUserConcerns",
  );
  let open: Concern[] = [];
  for (let index = Math.max(0, turns.length - lookbackTurns); index < turns.length; index += 1) {
    const turn = turns[index];
    if (turn?.role !== "user" || typeof turn.text !== "string") continue;
    const { concerns, resolves } = readUserTurn(turn.text, index);
    open = resolves ? concerns : [...open, ...concerns];
  }
  return open;
}

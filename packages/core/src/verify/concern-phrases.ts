/** What kind of unresolved concern a user raised. */
export type ConcernKind = "issue" | "blocker" | "correction";

/** One recognised phrase: its kind and its pattern (lowercase text, `'` for apostrophes). */
export interface ConcernPhrase {
  /** The kind of concern the phrase raises. */
  readonly kind: ConcernKind;
  /** The phrase's pattern, with the `g` flag. */
  readonly pattern: RegExp;
}

const not = "(?:doesn'?t|does not|didn'?t|did not|won'?t|will not|can'?t|cannot|can not)";
const beNot = "(?:not|isn'?t|aren'?t|wasn'?t|weren'?t)";

/**
 * The phrases that raise a concern, after the seed's examples ("This is wrong", "Not
 * working" → issue; "Blocked by" → blocker; "Fix this" → correction) and their common
 * variants. Matched case-insensitively on lowercase text; where matches overlap, the longest
 * wins ("not fixed" is an issue, not the resolution "fixed").
 */
// biome-ignore format: one pattern a line
export const CONCERN_PHRASES: readonly ConcernPhrase[] = [
  // issue: something is wrong or does not work
  { kind: "issue", pattern: /\b(?:\w+'s|is|are|was|were|looks?|seems?)(?: (?:still|all|completely|totally|just|clearly|obviously|definitely))? (?:wrong|incorrect)\b/g },
  { kind: "issue", pattern: /\b(?:went|gone|going) wrong\b/g },
  { kind: "issue", pattern: new RegExp(String.raw`\b${beNot}(?: \w+)? working\b`, "g") },
  { kind: "issue", pattern: /\b(?:stopped|stops) working\b|\bno longer (?:works?|working)\b|\bnothing (?:\w+ )?works\b/g },
  { kind: "issue", pattern: new RegExp(String.raw`\b${not}(?: \w+)? (?:work|compile|build|run|start|load|pass|render|open|connect)\b`, "g") },
  { kind: "issue", pattern: /\b(?:they|these|those|still|\w+s) (?:don'?t|do not)(?: \w+)? (?:work|compile|build|run|load|pass)\b/g },
  { kind: "issue", pattern: new RegExp(String.raw`\b(?:${beNot}|haven'?t|hasn'?t|never)(?: \w+)? (?:fixed|resolved|solved|right|correct)\b(?! now| away)`, "g") },
  { kind: "issue", pattern: /\b(?:didn'?t|did not|doesn'?t|does not) (?:fix|solve|resolve|change)\b/g },
  { kind: "issue", pattern: /\b(?:broken|broke|breaks)\b/g },
  { kind: "issue", pattern: /\b(?:failing|fails|failed)\b/g },
  { kind: "issue", pattern: /\bcrash(?:es|ed|ing)?\b/g },
  { kind: "issue", pattern: /\b(?:get|gets|getting|got|throws?|throwing|threw|see|seeing|shows?|showing|returns?|returning|raises?|raised|hit|hitting)(?: (?:an?|the|this|that|another|same))? (?:error|exception|stack ?trace|traceback|500|404)s?\b/g },
  { kind: "issue", pattern: /\b(?:a|another|the same|new) (?:\w+ )?bug\b/g },
  { kind: "issue", pattern: /(?:'s|'re|\bis|\bare) (?:still )?missing\b|\bstill (?:happening|there|the same|empty)\b/g },
  { kind: "issue", pattern: /\bregress(?:ed|ion)\b/g },
  { kind: "issue", pattern: /\bstuck\b/g },
  // blocker: the user cannot go on until something happens
  { kind: "blocker", pattern: /\bblocked (?:by|on)\b|\b(?:i'?m|we'?re|i am|we are|am|are|is|still|currently) blocked\b|\b(?:is|are) blocking\b|\bblockers?\b/g },
  { kind: "blocker", pattern: /\b(?:can'?t|cannot|can not|unable to|couldn'?t) (?:proceed|continue|move on|move forward|go on|go ahead|progress|merge|deploy|release|ship)(?: until)?\b/g },
  { kind: "blocker", pattern: /\b(?:(?:still|i'?m|we'?re|am|are|is) )?waiting (?:on|for)\b/g },
  { kind: "blocker", pattern: /\bon hold\b|\b(?:i'?m|we'?re|i am|we are) stuck\b/g },
  // correction: the user asks for something to be done differently
  { kind: "correction", pattern: /\bfix (?:this|that|it|these|those|the|them|your|my)\b|\bplease fix\b|\bneeds? (?:to be )?fix(?:ed|ing)\b/g },
  { kind: "correction", pattern: /\bnot what i (?:asked|wanted|meant|expected|said|requested)(?: for)?\b/g },
  { kind: "correction", pattern: /\bshould (?:be|say|read|use|return|show|call|have been) [^,;:]{1,80}?,? (?:not|instead of|rather than)\b/g },
  { kind: "correction", pattern: /\b(?:use|do|call|return|make it|put it|try) [^,;:]{1,80}? instead\b|\binstead of\b/g },
  { kind: "correction", pattern: /\bplease (?:change|revert|undo|remove|rename|redo|update|fix|use|stop|move|replace|delete|restore|don'?t)\b/g },
  { kind: "correction", pattern: /\b(?:change|revert|undo|rename|replace|restore) (?:it|this|that|these|those|them|the|your|back)\b/g },
  { kind: "correction", pattern: /\byou (?:forgot|missed|broke|ignored|skipped|removed|deleted|overwrote|misunderstood|misread)\b/g },
  { kind: "correction", pattern: /\b(?:the|a|an) wrong \w+/g },
  { kind: "correction", pattern: /\bdon'?t (?:do|use|add|change|remove|delete|touch|modify) (?:that|this|it)\b/g },
];

/**
 * The phrases by which a user says an earlier concern is settled: "thanks, that works now",
 * "fixed, looks good", "never mind", …
 */
// biome-ignore format: one pattern a line
export const RESOLUTION_PHRASES: readonly RegExp[] = [
  /\b(?:it|that|this|everything|all|now it|now everything) (?:works|worked|is working|'s working)\b/g,
  /\b(?:works|working|passes|passing|builds|compiles) now\b|\bnow (?:works|passes|builds|compiles)\b/g,
  /\b(?:fixed|resolved|solved)\b/g,
  /\blooks? (?:good|great|fine|right|correct|perfect)\b|\blgtm\b|\ball good\b|\bperfect\b/g,
  /\bnever ?mind\b|\bnvm\b|\bignore (?:that|this|my last|what i said)\b|\bmy (?:bad|mistake)\b|\bfalse alarm\b/g,
  /\bthat did it\b|\b(?:tests?|build|ci|everything) (?:is |are )?(?:passing|green|passes)\b/g,
  /\b(?:great|good|nice) (?:job|work)\b|\bwell done\b|\bship it\b/g,
];

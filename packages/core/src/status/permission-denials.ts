import { findCodeSpans } from "./code-spans.js";
import type { ProseSentence } from "./sentences.js";

/** A tool call the agent was not allowed to make. */
export interface PermissionDenial {
  /**
   * The tool denied, as the executor or the text names it (`Bash`, `Write`,
   * `mcp__github__create_issue`); for a textual report that names no tool, the denied action's
   * verb (`run`, `write`, …), or `"unknown"`.
   */
  readonly tool: string;
  /** What the call would have done (a command, a path), when known. */
  readonly detail: string | null;
}

/** How a textual report of a denial reads, and whether the sentence itself is the detail. */
interface DenialReport {
  /** `tool`, `action` and `object` name what the capture groups hold. */
  readonly pattern: RegExp;
  /** `false` for the harness's fixed messages, whose wording adds nothing. */
  readonly sentenceIsDetail: boolean;
}

/** The textual reports of a denial that agents and harnesses write. */
const DENIAL_REPORTS: readonly DenialReport[] = [
  {
    pattern:
      /\bpermission to use (?:the )?(?<tool>[\w-]+)(?: tool)?(?: (?:with|for) (?:command |input )?(?<object>.{1,500}?))? (?:has been|was|is|got) denied\b/i,
    sentenceIsDetail: false,
  },
  {
    pattern:
      /\brequested permissions? to (?<action>use|write to|read|edit|run|execute|access|fetch) (?<object>\S+?)[,.]? but (?:you )?(?:haven't|have not) granted it\b/i,
    sentenceIsDetail: false,
  },
  {
    pattern:
      /\bI (?:don't|do not|didn't|did not) have (?:the )?permissions? to (?<action>use|run|execute|write|edit|modify|create|delete|read|access|fetch|install|push|call)\b/i,
    sentenceIsDetail: true,
  },
  {
    pattern:
      /\bI(?:'m| am|'ve| have| was)? (?:not|never) (?:been )?(?:allowed|permitted) to (?<action>use|run|execute|write|edit|modify|create|delete|read|access|fetch|install|push|call)\b/i,
    sentenceIsDetail: true,
  },
  {
    pattern:
      /\b(?:was|were|has been|have been|got|is being) (?:blocked|denied|rejected) by (?:the |your )?permissions?(?: settings| system| policy| rules| mode| configuration)?\b/i,
    sentenceIsDetail: true,
  },
];

/** A tool named in a sentence: `the Bash tool`, `Bash(…)`, an MCP tool id. */
const NAMED_TOOL =
  /\bthe (?<tool>[A-Z][\w-]*) tool\b|\b(?<call>[A-Z][A-Za-z]+)\(|\b(?<mcp>mcp__[\w-]+)/;

/** An action verb in a sentence, when no tool is named. */
const ACTION_VERB =
  /\b(?<action>run|execute|write|edit|modify|create|delete|read|access|fetch|install|push)\b/i;

/** The tool a denial report names, or the verb of what was denied. */
function deniedTool(sentence: string, groups: Record<string, string | undefined>): string {
  const toolGroup = groups.tool;
  if (toolGroup !== undefined) return toolGroup;
  if (groups.action?.toLowerCase() === "use" && groups.object !== undefined) return groups.object;
  const named = NAMED_TOOL.exec(sentence)?.groups;
  const tool = named?.tool ?? named?.call ?? named?.mcp;
  if (tool !== undefined) return tool;
  const action = groups.action ?? ACTION_VERB.exec(sentence)?.groups?.action;
  return action === undefined ? "unknown" : (action.split(" ")[0] ?? action).toLowerCase();
}

/** The first inline code span of a piece of the answer, which usually holds the command. */
function firstInlineCode(original: string): string | null {
  for (const span of findCodeSpans(original)) {
    const spanText = original.slice(span.start, span.end);
    const ticks = spanText.length - spanText.replace(/^`+/, "").length;
    const code = spanText.slice(ticks, spanText.length - ticks).trim();
    if (code !== "") return code;
  }
  return null;
}

/**
 * Finds the permission denials the agent reports in its prose: "Permission to use Bash has
 * been denied", "Claude requested permissions to write to src/a.ts, but you haven't granted it
 * yet", "I don't have permission to run `npm install`", "my command was blocked by the
 * permission settings". The detail is the sentence's first inline code (a command or path),
 * else the command or path the report names, else the sentence itself for the agent's own
 * words, `null` for the harness's fixed messages.
 *
 * @param sentences - the prose sentences of the answer.
 * @param text - the answer itself, to read inline code the prose has blanked.
 * @returns one denial per reporting sentence, in order.
 */
export function findPermissionDenials(
  sentences: readonly ProseSentence[],
  text: string,
): PermissionDenial[] {
  const denials: PermissionDenial[] = [];
  for (const sentence of sentences) {
    for (const report of DENIAL_REPORTS) {
      const match = report.pattern.exec(sentence.text);
      if (match === null) continue;
      const groups = match.groups ?? {};
      const tool = deniedTool(sentence.text, groups);
      const object = groups.action?.toLowerCase() === "use" ? undefined : groups.object;
      const detail =
        firstInlineCode(text.slice(sentence.start, sentence.end)) ??
        object?.trim() ??
        (report.sentenceIsDetail ? sentence.text : null);
      denials.push({ tool, detail });
      break;
    }
  }
  return denials;
}

/**
 * Merges denials, dropping repeats: the same tool (case aside) with the same detail.
 *
 * @param lists - lists of denials, the executor's first.
 * @returns the distinct denials, first occurrence kept, in order.
 */
export function mergePermissionDenials(
  ...lists: readonly (readonly PermissionDenial[])[]
): PermissionDenial[] {
  const seen = new Set<string>();
  const merged: PermissionDenial[] = [];
  for (const denial of lists.flat()) {
    const key = `${denial.tool.toLowerCase()}\n${denial.detail ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push({ tool: denial.tool, detail: denial.detail });
  }
  return merged;
}

import { parseClaudeTranscript, type SkippedLineReason } from "@loop/core";

/**
 * How many Stop-hook blocks in a row Claude Code honours when `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`
 * is not set (2.1.197 and 2.1.332 alike): the next block is overridden and the turn ends, with
 * "A hook blocked the turn from ending 9 consecutive times—overriding and ending turn."
 */
export const DEFAULT_STOP_HOOK_BLOCK_CAP = 8;

/** The variable Claude Code reads its cap from; `0` (or less) turns the cap off. */
export const STOP_HOOK_BLOCK_CAP_VARIABLE = "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP";

/**
 * The cap a `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` value gives, read as Claude Code reads it: an
 * integer, {@link DEFAULT_STOP_HOOK_BLOCK_CAP} when absent or not a number; 0 or less means none.
 *
 * @param value - the variable's value, as the hook's environment has it.
 * @returns the cap; `null` when there is none.
 */
export function readStopHookBlockCap(value: string | null | undefined): number | null {
  const parsed = Number.parseInt(value ?? "", 10);
  const cap = Number.isNaN(parsed) ? DEFAULT_STOP_HOOK_BLOCK_CAP : parsed;
  return cap > 0 ? cap : null;
}

/** What one transcript line is, for counting blocks: a user's message, hook feedback, or other. */
function lineKind(line: string): "user" | "hook-feedback" | "other" {
  let reason: SkippedLineReason | null = null;
  const turns = parseClaudeTranscript(line, {
    onSkippedLine: (skipped) => {
      reason = skipped.reason;
    },
  });
  if (turns[0]?.role === "user") return "user";
  return reason === "hook-feedback" ? "hook-feedback" : "other";
}

/**
 * How many times in a row Stop hooks have blocked the current turn: the "Stop hook feedback"
 * lines after the user's last message in a Claude Code transcript. Claude Code ends the turn
 * when a block would make this more than its cap.
 *
 * @param jsonl - the whole transcript.
 */
export function consecutiveHookBlocks(jsonl: string): number {
  const lines = jsonl.split(/\r?\n/);
  let blocks = 0;
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index] ?? "";
    if (line.trim() === "") continue;
    const kind = lineKind(line);
    if (kind === "user") break;
    if (kind === "hook-feedback") blocks += 1;
  }
  return blocks;
}

/** Claude Code's notice that it overrode a blocking hook, with the number of blocks. */
const OVERRIDE_NOTICE = /A hook blocked the turn from ending (\d+) consecutive times/;

/**
 * Whether Claude Code overrode a block in these transcript lines ("A hook blocked the turn from
 * ending 9 consecutive times—overriding and ending turn."), and after how many blocks.
 *
 * Only Claude Code's own `system` lines count, never a message that quotes the notice.
 *
 * @param jsonl - transcript lines (those since the previous stop).
 * @returns the number of blocks the notice names; `null` when there is no notice.
 */
export function blockCapOverride(jsonl: string): number | null {
  let blocks: number | null = null;
  for (const line of jsonl.split(/\r?\n/)) {
    if (!OVERRIDE_NOTICE.test(line)) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    const record = entry as { type?: unknown; content?: unknown; text?: unknown } | null;
    if (record?.type !== "system") continue;
    const text = typeof record.content === "string" ? record.content : record.text;
    const match = typeof text === "string" ? OVERRIDE_NOTICE.exec(text) : null;
    if (match !== null) blocks = Number(match[1]);
  }
  return blocks;
}

import { open } from "node:fs/promises";
import { type DecisionEvent, parseDecisionEvent } from "@loop/core";

/** How much of the end of the decision log is read for the last events. */
const TAIL_BYTES = 256 * 1024;

/**
 * The last `count` events of one terminal in a decision log (JSON lines), oldest first, read
 * from the end of the file only. A missing file has none; lines that are not events are skipped.
 */
export async function readLastEvents(
  path: string,
  terminalId: string,
  count: number,
): Promise<DecisionEvent[]> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  try {
    const { size } = await file.stat();
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    await file.read(buffer, 0, buffer.length, start);
    const lines = buffer.toString("utf8").split("\n");
    if (start > 0) lines.shift(); // the first line may be cut
    const events: DecisionEvent[] = [];
    for (const line of lines) {
      if (line.trim() === "") continue;
      const parsed = parseDecisionEvent(line);
      if (parsed.ok && parsed.event.terminal_id === terminalId) events.push(parsed.event);
    }
    return count > 0 ? events.slice(-count) : [];
  } finally {
    await file.close();
  }
}

import type { ChildProcess } from "node:child_process";

/**
 * Resolves with the first line a child process prints on stdout that starts with `prefix`;
 * rejects if the child exits first. `who` names the child in that error ("writer", "claimer").
 */
export function waitForLine(child: ChildProcess, prefix: string, who: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const line = buffered.split("\n").find((candidate) => candidate.startsWith(prefix));
      if (line !== undefined) {
        child.stdout?.off("data", onData);
        resolve(line);
      }
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`${who} exited with ${code} before "${prefix}"`)),
    );
  });
}

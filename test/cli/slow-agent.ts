import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

/** An agent that writes its pid to agent.pid (in its working folder) and then works for up to a minute. */
export const SLOW_AGENT = `import { writeFileSync } from "node:fs";
writeFileSync("agent.pid", String(process.pid));
setTimeout(() => {}, 60_000);
`;

/** Resolves once the slow agent of `loop run` (`child`) wrote its pid file; rejects if the loop ends first. */
export function agentStarted(child: ChildProcess, pidFile: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    child.on("exit", () => reject(new Error("loop run ended before its agent started")));
    const poll = setInterval(() => {
      if (!existsSync(pidFile)) return;
      clearInterval(poll);
      resolve();
    }, 50);
  });
}

/** Kills a test's `loop run` and the slow agent whose pid file it wrote, whatever is left of them. */
export function killLoopAndAgent(child: ChildProcess, pidFile: string): void {
  child.kill("SIGKILL");
  if (!existsSync(pidFile)) return;
  try {
    process.kill(Number(readFileSync(pidFile, "utf8")), "SIGKILL");
  } catch {
    // already gone
  }
}

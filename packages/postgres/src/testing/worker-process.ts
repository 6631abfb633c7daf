import { type ChildProcess, spawn } from "node:child_process";
import type { SharedLimitsWorkerJob } from "./shared-limits-worker.js";
import type { WorkerJob } from "./store-worker.js";

/** A running worker: its process and the facts it reported. */
export interface WorkerProcess {
  /** The child process. */
  readonly child: ChildProcess;
  /** The facts (JSON lines) it has printed so far. */
  readonly facts: Record<string, unknown>[];
  /** Resolves with the first fact having `key`. */
  fact(key: string): Promise<Record<string, unknown>>;
  /** Writes a line to its stdin. */
  send(line: string): void;
  /** Resolves with its exit code (or signal) when it ends. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts a bundled worker on `job`; its stderr is kept for failure messages. */
export function startWorker(bundle: string, job: WorkerJob | SharedLimitsWorkerJob): WorkerProcess {
  const child = spawn(process.execPath, [bundle, JSON.stringify(job)], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  // A line sent to a worker that has already ended (a race's loser) is of no matter.
  child.stdin?.on("error", () => {});
  const facts: Record<string, unknown>[] = [];
  const waiting: { key: string; resolve: (fact: Record<string, unknown>) => void }[] = [];
  let pending = "";
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      const fact = JSON.parse(line) as Record<string, unknown>;
      facts.push(fact);
      for (const watcher of waiting.filter((entry) => entry.key in fact)) watcher.resolve(fact);
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    facts,
    fact(key: string) {
      const known = facts.find((fact) => key in fact);
      if (known !== undefined) return Promise.resolve(known);
      return new Promise((resolve, reject) => {
        waiting.push({ key, resolve });
        void exited.then(({ code, signal }) =>
          reject(
            new Error(
              `worker ${child.pid} ended (${code ?? signal}) before reporting "${key}": ${JSON.stringify(facts)} ${stderr}`,
            ),
          ),
        );
      });
    },
    send(line: string) {
      if (child.exitCode === null && child.signalCode === null) child.stdin?.write(`${line}\n`);
    },
    exited,
  };
}

import { PROJECT_OPTIONS } from "../project.js";

/** The agents `loop run --executor` knows. */
export const EXECUTOR_NAMES = ["claude", "codex", "gemini", "aider", "amp", "command"] as const;

/** One of {@link EXECUTOR_NAMES}. */
export type ExecutorName = (typeof EXECUTOR_NAMES)[number];

/** The options of `loop run`. */
export const RUN_OPTIONS = {
  ...PROJECT_OPTIONS,
  executor: { type: "string", short: "e" },
  cmd: { type: "string" },
  bin: { type: "string" },
  "prompt-via": { type: "string" },
  calls: { type: "string", short: "c" },
  prompt: { type: "string", short: "p" },
  "max-iterations": { type: "string" },
  "max-cost": { type: "string" },
  timeout: { type: "string" },
  "permission-mode": { type: "string" },
  "dangerously-skip-permissions": { type: "boolean" },
  "dry-run": { type: "boolean" },
  reset: { type: "boolean" },
  json: { type: "boolean" },
  parallel: { type: "string" },
  "merge-agent": { type: "boolean" },
} as const;

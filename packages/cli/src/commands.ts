import type { CommandEntry } from "./command-module.js";

/** The `loop` commands, in the order `loop --help` lists them. Each module loads lazily. */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  run: {
    summary: "Run the loop over a plan with an agent until it is done or a limit stops it",
    load: async () => (await import("./commands/run.js")).runCommand,
  },
  status: {
    summary: "Show a terminal's loop state, metrics and last decisions",
    load: async () => (await import("./commands/status.js")).statusCommand,
  },
  logs: {
    summary: "Show what the agent printed in an iteration (its raw output); -f follows new ones",
    load: async () => (await import("./commands/logs.js")).logsCommand,
  },
  reset: {
    summary: "After a safety stop: close the breaker, forget given-up tasks, zero the counters",
    load: async () => (await import("./commands/reset.js")).resetCommand,
  },
  branches: {
    summary: "The work `loop run --parallel` kept on branches: list, retry or discard it",
    load: async () => (await import("./commands/branches.js")).branchesCommand,
  },
  monitor: {
    summary: "Live dashboard of a running loop (q to quit)",
    load: async () => (await import("./commands/monitor.js")).monitorCommand,
  },
  init: {
    summary: "Scaffold plan.md and .claude/loop/config.yaml (and the Stop hook with --hook)",
    load: async () => (await import("./commands/init.js")).initCommand,
  },
  validate: {
    summary: "Check the plan and config; print every problem with file:line:column",
    load: async () => (await import("./commands/validate.js")).validateCommand,
  },
  hook: {
    summary: "Claude Code hooks: `loop hook stop` is the ralph loop's Stop hook",
    load: async () => (await import("./commands/hook.js")).hookCommand,
  },
};

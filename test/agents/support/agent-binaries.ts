import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

// Where `scripts/install-agents.mjs` put the real agent CLIs, at the versions pinned in
// test/agents/agent-versions.json. A missing binary is an error, never a skipped test: the tier
// says what is missing and fails.

/** The agents of the pin file. */
export type AgentName = "claude" | "codex" | "gemini" | "amp";

interface PinEntry {
  readonly package: string;
  readonly bin: string;
  readonly versions: readonly string[];
}

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const PINS = JSON.parse(
  readFileSync(new URL("../agent-versions.json", import.meta.url), "utf8"),
) as { agents: Record<AgentName, PinEntry> };

/** One installed CLI at one pinned version. */
export interface AgentBinary {
  readonly name: AgentName;
  readonly packageName: string;
  readonly version: string;
  /** The executable, absolute. */
  readonly path: string;
}

/** Every pinned version of an agent, newest first as the pin file lists them. */
export function pinnedVersions(name: AgentName): readonly string[] {
  return PINS.agents[name].versions;
}

/**
 * The installed binary of `name` at `version` (default: the first pinned, the newest).
 *
 * @throws when it is not installed, naming the command that installs it.
 */
export function agentBinary(name: AgentName, version?: string): AgentBinary {
  const entry = PINS.agents[name];
  const pinned = version ?? entry.versions[0];
  if (pinned === undefined || !entry.versions.includes(pinned)) {
    throw new Error(`${name} ${String(version)} is not pinned in test/agents/agent-versions.json`);
  }
  const path = `${ROOT}.cache/agents/${name}@${pinned}/node_modules/.bin/${entry.bin}`;
  if (!existsSync(path)) {
    throw new Error(
      `${entry.package}@${pinned} is not installed at ${path}: run \`pnpm test:agents\` (it runs scripts/install-agents.mjs first).`,
    );
  }
  return { name, packageName: entry.package, version: pinned, path };
}

import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, DEFAULT_CONFIG } from "@loop/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigNotFoundError } from "./config-not-found-error.js";
import { loadConfigFile } from "./load-config-file.js";

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "loop-load-config-"));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** The seed's config.yaml. */
const seedConfig = `version: 1
enforcement:
  enabled: true
exit_policy:
  min_completion_indicators: 3
  require_exit_signal: true
  require_all_tasks_complete: true
  require_verification_pass: false
verification:
  enabled: true
  lookback_turns: 10
  fuzzy_match_threshold: 0.8
plans:
  default_plan: plan.md
  allow_per_terminal_plan: false
logging:
  decision_log: .claude/loop/logs/decision.log
  verifier_log: .claude/loop/logs/verifier.log
`;

describe("loadConfigFile", () => {
  it("checks its path before doing anything", async () => {
    await expect(loadConfigFile(undefined as never)).rejects.toThrow(
      "loadConfigFile: `path` must be a non-empty string",
    );
  });

  it("reads and validates the seed's config, defaults filled in", async () => {
    const folder = join(directory, ".claude", "loop");
    await mkdir(folder, { recursive: true });
    const path = join(folder, "config.yaml");
    await writeFile(path, seedConfig);
    const config = await loadConfigFile(path);
    expect(config.exit_policy.min_completion_indicators).toBe(3);
    expect(config.logging.decision_log).toBe(".claude/loop/logs/decision.log");
    expect(config.limits).toEqual(DEFAULT_CONFIG.limits);
  });

  it("reads a CRLF file with a byte order mark", async () => {
    const path = join(directory, "config.yaml");
    await writeFile(path, `\uFEFF${seedConfig.replaceAll("\n", "\r\n")}`);
    expect((await loadConfigFile(path)).exit_policy.min_completion_indicators).toBe(3);
  });

  it("reads the file afresh at every call", async () => {
    const path = join(directory, "config.yaml");
    await writeFile(path, "exit_policy:\n  min_completion_indicators: 3\n");
    expect((await loadConfigFile(path)).exit_policy.min_completion_indicators).toBe(3);
    await writeFile(path, "exit_policy:\n  min_completion_indicators: 4\n");
    expect((await loadConfigFile(path)).exit_policy.min_completion_indicators).toBe(4);
  });

  it("names the file with line and column in a ConfigError", async () => {
    const path = join(directory, "config.yaml");
    await writeFile(path, "exit_policy:\n  min_completion_indicatorz: 3\n");
    const failure = await loadConfigFile(path).catch((error: unknown) => error);
    expect(ConfigError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toContain(
      `${path}:2:3 exit_policy.min_completion_indicatorz: unknown key`,
    );
    expect((failure as Error).message).toContain('did you mean "min_completion_indicators"?');
  });

  it("reports YAML syntax errors at their position in the file", async () => {
    const path = join(directory, "config.yaml");
    await writeFile(path, "exit_policy:\n  min_completion_indicators: [3\n");
    await expect(loadConfigFile(path)).rejects.toThrow(new RegExp(`${path}:\\d+:\\d+`));
  });

  it("throws a ConfigNotFoundError naming the path when a required file is missing", async () => {
    const path = join(directory, ".claude", "loop", "config.yaml");
    const failure = await loadConfigFile(path).catch((error: unknown) => error);
    expect(ConfigNotFoundError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({
      code: "CONFIG_NOT_FOUND",
      path,
      cause: { code: "ENOENT" },
    });
    expect((failure as Error).message).toContain(`Config file not found: ${path}`);
  });

  it("gives the defaults, as a fresh mutable object, when an optional file is missing", async () => {
    const path = join(directory, "config.yaml");
    const config = await loadConfigFile(path, { optional: true });
    expect(config).toEqual(DEFAULT_CONFIG);
    expect(Object.isFrozen(config)).toBe(false);
  });

  it("still validates an optional file that exists", async () => {
    const path = join(directory, "config.yaml");
    await writeFile(path, "limits:\n  max_iterations: -1\n");
    await expect(loadConfigFile(path, { optional: true })).rejects.toThrow(`${path}:2:19`);
  });

  it("passes other read errors through (a folder where the file should be)", async () => {
    await expect(loadConfigFile(directory, { optional: true })).rejects.toMatchObject({
      code: "EISDIR",
    });
  });
});

import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

// The real-agent tier (`pnpm test:agents`): tests that spawn the real Claude Code, Codex and
// Gemini CLIs (installed by scripts/install-agents.mjs) against local stand-ins of their model
// APIs. Each real CLI takes seconds to start, so the files run one at a time.
export default defineConfig({
  resolve: base.resolve ?? {},
  test: {
    include: ["test/agents/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});

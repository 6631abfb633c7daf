import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the sources; test/package-exports.test.ts checks the built dist/.
    alias: {
      "@loop/core": source("./packages/core/src/index.ts"),
      "@loop/memory": source("./packages/memory/src/index.ts"),
      "@loop/fs": source("./packages/fs/src/index.ts"),
      "@loop/claude": source("./packages/claude/src/index.ts"),
      "@loop/exec": source("./packages/exec/src/index.ts"),
      "@loop/git": source("./packages/git/src/index.ts"),
      "@loop/postgres": source("./packages/postgres/src/index.ts"),
      "@loop/cli": source("./packages/cli/src/index.ts"),
      "@loop/test-suite": source("./packages/test-suite/src/index.ts"),
    },
  },
  test: {
    include: ["packages/*/src/**/*.test.ts", "test/**/*.test.ts", "examples/**/*.test.ts"],
    // The real-agent tier runs with `pnpm test:agents` (vitest.agents.config.ts).
    exclude: ["**/node_modules/**", "test/agents/**"],
  },
});

import { ampExecutor } from "@loop/exec";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { executionRequest } from "../support/execution-request.js";
import { agentBinary } from "./support/agent-binaries.js";
import { type TempFolder, tempFolder } from "./support/temp-folder.js";

// Amp, renamed from @sourcegraph/amp to @ampcode/cli, through the `ampExecutor` preset. Amp's
// agent runs on Amp's own service, which has no local stand-in: these tests point it at a port on
// 127.0.0.1 where nothing listens, so it runs offline and the preset's command line, prompt
// delivery and error reporting are checked against the real binary.

const amp = agentBinary("amp");

describe(`ampExecutor on ${amp.packageName} ${amp.version}`, () => {
  let home: TempFolder;
  beforeEach(async () => {
    home = await tempFolder("amp-home");
  });
  afterEach(async () => {
    await home.remove();
  });

  it("runs the real binary in execute mode, the prompt on stdin, and reports why it failed", async () => {
    const executor = ampExecutor({
      command: amp.path,
      cwd: home.path,
      env: {
        PATH: process.env.PATH,
        HOME: home.path,
        AMP_API_KEY: "sgamp_user_standin",
        AMP_URL: "http://127.0.0.1:9/",
        NO_COLOR: "1",
      },
      timeoutMs: 60_000,
    });
    const result = await executor.execute(
      executionRequest({
        prompt: "---\ntitle: a prompt that starts like front matter\n---\nWork on TASK-001.",
      }),
      { signal: new AbortController().signal },
    );
    expect(result.success).toBe(false);
    // Amp's own words: it read the prompt and tried its service (no "unknown option").
    expect(result.error).toContain("Couldn't connect to the Amp server at http://127.0.0.1:9/");
  });
});

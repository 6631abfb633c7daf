#!/usr/bin/env node
import { CLI_VERSION } from "./version.js";

// `loop --version` answers before anything else loads; every other command goes through runCli.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
  process.stdout.write(`${CLI_VERSION}\n`);
} else {
  const [{ processIo }, { runCli }] = await Promise.all([
    import("./cli-io.js"),
    import("./run-cli.js"),
  ]);
  // This file is how to run the CLI again (a Stop hook's command).
  process.exitCode = await runCli(argv, processIo({ entry: import.meta.url }));
}

/**
 * The `loop` command as a library: run it from your own program or tests with your own streams.
 * The binary is `loop` (`pnpm --filter @loop/cli build`, then `node packages/cli/dist/loop.js`).
 *
 * @packageDocumentation
 */

export type { CliIo, CliOutput, ProcessIoOptions } from "./cli-io.js";
export { processIo } from "./cli-io.js";
export { CLI_EXIT_CODES } from "./exit-codes.js";
export { runCli } from "./run-cli.js";
export { CLI_VERSION } from "./version.js";

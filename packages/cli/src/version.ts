declare const __LOOP_CLI_VERSION__: string | undefined;

/** The CLI's version, from its package.json at build time (`0.0.0-dev` when run from source). */
export const CLI_VERSION: string =
  typeof __LOOP_CLI_VERSION__ === "string" ? __LOOP_CLI_VERSION__ : "0.0.0-dev";

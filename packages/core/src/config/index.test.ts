import { describe, expect, it } from "vitest";
import * as config from "./index.js";

describe("config public API", () => {
  it("exports exactly these values", () => {
    expect(Object.keys(config).sort()).toEqual([
      "CONFIG_SCHEMA_ID",
      "ConfigError",
      "DEFAULT_CONFIG",
      "LoopConfigSchema",
      "checkConfig",
      "configJsonSchema",
      "parseConfig",
      "resolveConfig",
    ]);
  });

  it("throws ConfigError errors that carry their code", () => {
    expect(() => config.parseConfig("version: 2\n")).toThrow(config.ConfigError);
  });
});

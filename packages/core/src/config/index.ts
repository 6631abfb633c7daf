export { ConfigError } from "./config-error.js";
export { LoopConfigSchema } from "./config-schema.js";
export {
  type ConfigWarning,
  type ConfigWarningCode,
  checkConfig,
} from "./config-warnings.js";
export type { DeepReadonly } from "./deep-readonly.js";
export { DEFAULT_CONFIG } from "./default-config.js";
export { CONFIG_SCHEMA_ID, configJsonSchema } from "./json-schema.js";
export type { LoopConfig, LoopConfigInput } from "./loop-config.js";
export { type ParseConfigOptions, parseConfig } from "./parse-config.js";
export { resolveConfig } from "./resolve-config.js";

/** How the real Claude Code authenticates against the stand-in. */
export type ClaudeAuth =
  /** `ANTHROPIC_API_KEY`: an API (pay-as-you-go) user. */
  | "api-key"
  /** `CLAUDE_CODE_OAUTH_TOKEN`: a subscriber (Pro, Max): rate-limit events, extra usage. */
  | "subscription"
  /** No credentials: "Not logged in". */
  | "none";

/** Options of {@link claudeEnvironment}. */
export interface ClaudeEnvironmentOptions {
  /** The stand-in's URL (`ANTHROPIC_BASE_URL`). */
  readonly baseUrl: string;
  /** The HOME of the agent: a temp folder, so no real settings or credentials are read. */
  readonly home: string;
  /** Default: `"api-key"`. */
  readonly auth?: ClaudeAuth | undefined;
  /** More variables (or `undefined` to drop one). */
  readonly extra?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * The environment the real Claude Code runs in for the tier: offline against the stand-in, a temp
 * HOME, no auto-update, telemetry, error reports or other non-essential traffic, and no retries
 * of failed API calls (the tests script each answer; a retry would only wait).
 */
export function claudeEnvironment(options: ClaudeEnvironmentOptions): Record<string, string> {
  const auth = options.auth ?? "api-key";
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: options.home,
    ANTHROPIC_BASE_URL: options.baseUrl,
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CODE_MAX_RETRIES: "0",
    NO_COLOR: "1",
    ...(auth === "api-key" ? { ANTHROPIC_API_KEY: "sk-ant-api03-standin" } : {}),
    ...(auth === "subscription" ? { CLAUDE_CODE_OAUTH_TOKEN: "sk-ant-oat01-standin" } : {}),
    ...options.extra,
  };
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

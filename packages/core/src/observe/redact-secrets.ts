/** What a redacted secret is replaced with. */
export const REDACTED = "[REDACTED]";

/**
 * Shapes of credentials that agents and tools print (an error that echoes an environment, a
 * config file the agent read): each a plain character-class pattern, so redaction is linear in
 * the text's length.
 */
const SECRET_PATTERNS: readonly RegExp[] = [
  /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----[\s\S]{0,10000}?-----END [A-Z ]{0,40}PRIVATE KEY-----/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, // AWS access key id
  /\bsk-ant-[A-Za-z0-9_-]{16,}/g, // Anthropic
  /\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}/g, // OpenAI
  /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g, // Google API key
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack
  /\bBearer\s+[A-Za-z0-9._~+/-]{16,}=*/g,
];

/**
 * No pattern matches fewer characters: a named secret is at least `token` (5), a separator (1)
 * and an 8-character value. Shorter strings (task ids, most payload values) are not searched.
 */
const SHORTEST_SECRET = 14;

/** `name = value`, `name: value`, `"name": "value"` for names that say the value is secret. */
const NAMED_SECRET =
  /\b([A-Za-z0-9_]{0,40}(?:password|passwd|secret|token|api[_-]?key|access[_-]?key)[A-Za-z0-9_]{0,40})(["']?\s{0,5}[:=]\s{0,5}["']?)([^\s"',;]{8,})/gi;

/**
 * `text` with obvious credentials replaced by `[REDACTED]`: private key blocks, AWS access key
 * ids, Anthropic, OpenAI, GitHub, Google and Slack tokens, bearer tokens, and the value of a
 * `…password`, `…secret`, `…token` or `…api_key` assignment (its name kept, so the log still
 * says what was there). For what the loop writes to its logs and state; never a guarantee that
 * nothing secret is left.
 *
 * @param text - any text.
 */
export function redactSecrets(text: string): string {
  if (text.length < SHORTEST_SECRET) return text;
  let redacted = text;
  for (const pattern of SECRET_PATTERNS) redacted = redacted.replace(pattern, REDACTED);
  return redacted.replace(NAMED_SECRET, (_match, name: string, separator: string, value: string) =>
    value === REDACTED ? `${name}${separator}${value}` : `${name}${separator}${REDACTED}`,
  );
}

/**
 * `value` with {@link redactSecrets} applied to every string in it (objects and arrays copied,
 * other values kept): for a decision event's payload.
 *
 * @param value - a JSON-like value.
 */
export function redactValue<T>(value: T): T {
  if (typeof value === "string") return redactSecrets(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactValue(item)) as T;
  if (value !== null && typeof value === "object") {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = redactValue(item);
    return copy as T;
  }
  return value;
}

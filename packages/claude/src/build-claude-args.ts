import type { ExecutionRequest } from "@loop/core";

/**
 * The permission modes of `claude --permission-mode`: `acceptEdits`, `auto`, `bypassPermissions`,
 * `dontAsk`, `plan`, and the one that asks, named `default` up to Claude Code 2.1.2xx and `manual`
 * from 2.1.3xx (which still takes `default`). Any other string is passed as it is.
 */
export type ClaudePermissionMode =
  | "acceptEdits"
  | "auto"
  | "bypassPermissions"
  | "default"
  | "dontAsk"
  | "manual"
  | "plan"
  | (string & {});

/** How to call the Claude Code CLI. */
export interface ClaudeArgsOptions {
  /** `--model`: a model alias (`sonnet`, `opus`) or full name. */
  readonly model?: string | null | undefined;
  /** `--allowedTools`: tools allowed without asking (`Bash(git:*)`, `Edit`). */
  readonly allowedTools?: readonly string[] | null | undefined;
  /** `--disallowedTools`: tools refused. */
  readonly disallowedTools?: readonly string[] | null | undefined;
  /** `--permission-mode`. */
  readonly permissionMode?: ClaudePermissionMode | null | undefined;
  /**
   * `--dangerously-skip-permissions`, only when this is `true`: every tool call runs unasked.
   * Never a default.
   */
  readonly skipPermissions?: boolean | null | undefined;
  /** `--max-turns`: the most agent turns per run. */
  readonly maxTurns?: number | null | undefined;
  /** `--append-system-prompt`: text added to Claude Code's system prompt. */
  readonly appendSystemPrompt?: string | null | undefined;
  /** Whether to continue the request's session with `--resume <sessionId>` (never `--continue`). */
  readonly continueSession?: boolean | null | undefined;
  /** More arguments, passed after the others, as given. */
  readonly extraArgs?: readonly string[] | null | undefined;
}

/**
 * Builds the argument list of one `claude` run: `-p <prompt> --output-format stream-json
 * --verbose` and the options given. Each value is one element of the list, never joined into a
 * shell string, so a hostile prompt cannot become a command; a prompt that starts with `-` is
 * passed last, after `--`, so it cannot become a flag either.
 *
 * @param options - how to call the CLI.
 * @param request - the prompt and the previous session id.
 * @returns the arguments, without the program name.
 *
 * @example
 * ```ts
 * buildClaudeArgs({ model: "sonnet" }, { prompt: "Fix the bug", sessionId: null });
 * // ["-p", "Fix the bug", "--output-format", "stream-json", "--verbose", "--model", "sonnet"]
 * ```
 */
export function buildClaudeArgs(
  options: ClaudeArgsOptions | null | undefined,
  request: Pick<ExecutionRequest, "prompt" | "sessionId">,
): string[] {
  const settings = options ?? {};
  // A prompt that starts with "-" would read as a flag (`-p` is a switch, the prompt a
  // positional argument; the CLI answers "error: unknown option"): it goes last, after the `--`
  // that ends the options. The CLI parses with commander, which stops at `--`; users of Claude
  // Code 2.1.x report the same (anthropics/claude-code#25925, and projects that pass `-- <prompt>`).
  const promptLooksLikeFlag = request.prompt.startsWith("-");
  const args = promptLooksLikeFlag ? ["-p"] : ["-p", request.prompt];
  args.push("--output-format", "stream-json", "--verbose");
  if (settings.model) args.push("--model", settings.model);
  if (settings.allowedTools && settings.allowedTools.length > 0) {
    args.push("--allowedTools", settings.allowedTools.join(","));
  }
  if (settings.disallowedTools && settings.disallowedTools.length > 0) {
    args.push("--disallowedTools", settings.disallowedTools.join(","));
  }
  if (settings.permissionMode) args.push("--permission-mode", settings.permissionMode);
  if (settings.skipPermissions === true) args.push("--dangerously-skip-permissions");
  if (settings.maxTurns != null) args.push("--max-turns", String(settings.maxTurns));
  if (settings.appendSystemPrompt) args.push("--append-system-prompt", settings.appendSystemPrompt);
  if (settings.continueSession === true && request.sessionId) {
    args.push("--resume", request.sessionId);
  }
  if (settings.extraArgs) args.push(...settings.extraArgs);
  if (promptLooksLikeFlag) args.push("--", request.prompt);
  return args;
}

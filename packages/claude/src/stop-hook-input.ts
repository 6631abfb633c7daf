/**
 * What is wrong with a Stop hook's input, or `null` when it has the shape Claude Code sends:
 * an object with a non-empty `session_id` and `cwd`, and, when present, a string (or `null`)
 * `transcript_path` and a boolean `stop_hook_active`. Hook input comes from another program;
 * a malformed one is reported, never thrown on.
 *
 * @param input - the parsed hook input, as it came.
 */
export function stopHookInputProblem(input: unknown): string | null {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return `the hook input is not a JSON object (got ${input === null ? "null" : Array.isArray(input) ? "an array" : typeof input})`;
  }
  const fields = input as Record<string, unknown>;
  for (const key of ["session_id", "cwd"]) {
    if (typeof fields[key] !== "string" || fields[key] === "") {
      return `the hook input's ${key} is not a non-empty string (got ${JSON.stringify(fields[key]) ?? "nothing"})`;
    }
  }
  const transcript = fields.transcript_path;
  if (transcript !== undefined && transcript !== null && typeof transcript !== "string") {
    return `the hook input's transcript_path is not a string (got ${JSON.stringify(transcript)})`;
  }
  const active = fields.stop_hook_active;
  if (active !== undefined && typeof active !== "boolean") {
    return `the hook input's stop_hook_active is not true or false (got ${JSON.stringify(active)})`;
  }
  return null;
}

/**
 * A connection URL fit for a message or a status line: its password replaced by `***`
 * (`postgres://loop:***@db:5432/loops`). Text that is not a URL is returned as it is.
 *
 * @param url - a `postgres://` URL.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.password === "") return url;
  parsed.password = "***";
  return parsed.toString();
}

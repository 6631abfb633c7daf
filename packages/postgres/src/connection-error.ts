/** Node.js socket errors that mean the connection to the server failed or broke. */
const socketCodes = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH"]);

/**
 * Whether `error` says the connection to PostgreSQL failed or broke, rather than that the
 * statement was wrong: a refused or reset socket, a connection terminated (by a restart or
 * `pg_terminate_backend`), SQLSTATE class 08 (connection exception) or 57P01–57P03 (the
 * server shutting down or starting up), or the pool's connection timeout. Such a statement may
 * be tried again on a new connection.
 */
export function isConnectionError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === "string") {
    if (socketCodes.has(code) || code.startsWith("08")) return true;
    if (code === "57P01" || code === "57P02" || code === "57P03") return true;
  }
  return (
    typeof message === "string" &&
    (message.startsWith("Connection terminated") ||
      message.includes("timeout exceeded when trying to connect"))
  );
}

/**
 * Polls `condition` every 20 ms until it holds or `timeoutMs` has passed, and says whether it
 * held: for what another process does in its own time (a child that ends, an orphan that PID 1
 * reaps, which in some containers takes a second or two).
 */
export async function waitUntil(condition: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return condition();
}

/** How long to wait for a usage limit whose reset time is unknown, before trying again. */
export const UNKNOWN_RESET_WAIT_MS = 5 * 60_000;

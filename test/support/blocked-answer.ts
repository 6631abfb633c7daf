// An agent's answer that reports it is blocked, with a reason and a RECOMMENDATION: what the
// tests of the blocked stop feed the loop, in the engine (a scripted executor) and the CLI (a
// command agent that prints it).

/** The answer: the block reason, then a RALPH_STATUS block with STATUS: BLOCKED. */
export const BLOCKED_ANSWER = [
  "I wired the payment client.",
  "",
  "I cannot proceed without the Stripe API key.",
  "",
  "---RALPH_STATUS---",
  "STATUS: BLOCKED",
  "EXIT_SIGNAL: false",
  "RECOMMENDATION: Add STRIPE_KEY to .env",
  "---END_RALPH_STATUS---",
].join("\n");

/** One message of a conversation between the user and the agent. */
export interface ChatTurn {
  /** Who wrote it. */
  readonly role: "user" | "assistant";
  /** What it says, as plain text (markdown allowed). */
  readonly text: string;
}

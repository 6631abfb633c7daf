import type { PermissionDenial } from "./permission-denials.js";
import type { StatusBlock } from "./status-block.js";

/** Where an exit signal came from. */
export type ExitSignalSource = "status_block" | "promise_tag";

/** The agent's explicit word on whether the loop may stop. */
export interface ExitSignal {
  /** `true`: the agent says the whole project is complete; `false`: it says it is not. */
  readonly value: boolean;
  /** `status_block`: the block's `EXIT_SIGNAL` or `STATUS`; `promise_tag`: the completion promise. */
  readonly source: ExitSignalSource;
}

/** Options of `analyzeResponse`. */
export interface AnalyzeResponseOptions {
  /**
   * The completion promise of the `<promise>TEXT</promise>` convention: when the agent's prose
   * makes exactly this promise (spaces collapsed, case kept), the answer carries an exit signal
   * from `promise_tag`. Without it, tags are reported in `promiseTag` but never signal exit.
   */
  readonly completionPromise?: string | null | undefined;
  /** Denials the executor reported as data (Claude Code's `permission_denials`), merged in first. */
  readonly permissionDenials?: readonly PermissionDenial[] | null | undefined;
  /** More phrases that count as strong completion statements, matched as whole words. */
  readonly extraCompletionPhrases?: readonly string[] | null | undefined;
}

/** What one iteration's answer tells the exit policy. Plain data. */
export interface ResponseSignals {
  /** The answer's last closed `---RALPH_STATUS---` block (or YAML-form block), or `null`. */
  readonly statusBlock: StatusBlock | null;
  /**
   * The agent's explicit exit signal after the precedence rules: `EXIT_SIGNAL: false` wins over
   * everything; `STATUS: IN_PROGRESS` turns a true signal false; then `EXIT_SIGNAL: true`; then
   * a kept completion promise. `null` when the agent gave none.
   */
  readonly exitSignal: ExitSignal | null;
  /**
   * The agent says the whole job is done: `STATUS: COMPLETE`, an exit signal of `true`, or,
   * when the block gives no `STATUS`, a strong completion statement in the prose. Never with an
   * exit signal of `false`, `STATUS: IN_PROGRESS` or `STATUS: BLOCKED`.
   */
  readonly doneSignal: boolean;
  /** The run only ran tests: `WORK_TYPE: TESTING`, or without a `WORK_TYPE`, the prose shows it. */
  readonly testOnly: boolean;
  /**
   * The strong completion statements of the prose, as written, each wording once; none from a
   * quoted changelog or commit list (see `analyzeResponse`).
   */
  readonly completionPhrases: string[];
  /** How many strong completion statements the prose makes: `completionPhrases.length`. */
  readonly completionIndicatorCount: number;
  /** `STATUS: BLOCKED`, or the prose says plainly that the agent is blocked or needs a human. */
  readonly blocked: boolean;
  /**
   * The agent's own words for why it is blocked: the first prose sentence that says so plainly
   * ("I cannot proceed without the STRIPE_KEY."). `null` when it is not blocked, or when only the
   * status block's `STATUS: BLOCKED` says so (its `RECOMMENDATION` may then say why).
   */
  readonly blockedReason: string | null;
  /** The sentences in which the agent asks the user something or requests input. */
  readonly questions: string[];
  /** `questions` is not empty: a headless loop has nobody to answer. */
  readonly askingQuestions: boolean;
  /** 16 hex digits identifying the error the answer ends on, stable across runs; or `null`. */
  readonly errorFingerprint: string | null;
  /** That error as written, for people; `null` when there is none. */
  readonly errorSummary: string | null;
  /** Tool calls that were denied: the executor's, then those the prose reports, without repeats. */
  readonly permissionDenials: PermissionDenial[];
  /** The text of the last promise tag the prose makes, matching `completionPromise` or not. */
  readonly promiseTag: string | null;
  /** The contradictions between signals that the precedence rules settled, in words, for logs. */
  readonly contradictions: string[];
}

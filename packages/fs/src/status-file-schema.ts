import * as z from "zod";

/** An ISO 8601 date and time, with an offset (`2025-09-30T12:00:00-04:00`, `…Z`) or local. */
const isoDateTime = z.iso.datetime({ offset: true, local: true });

/** A count: a whole number, 0 or more. */
const count = z.int().nonnegative();

/** The fields of `status.json`, in the order they are written. */
const statusShape = {
  /** When the status was written. */
  timestamp: isoDateTime,
  /** Iterations started so far. */
  loop_count: count,
  /** Agent calls made in the current hour (the rate limit's window). */
  calls_made_this_hour: count,
  /** The hourly limit of agent calls. */
  max_calls_per_hour: count,
  /** What the loop did last (`executing`, `executed`, `failed`, `api_limit_wait`, `interrupted`…). */
  last_action: z.string(),
  /** The loop's state (`running`, `paused`, `completed`, `halted`, `stopped`, `failed`…). */
  status: z.string(),
  /** Why the loop ended (an exit reason code), or `""` while it runs. */
  exit_reason: z.string(),
  /** When the hourly call counter resets (ralph_loop.sh writes the time of day, `13:00:00`). */
  next_reset: z.string(),
  /** Optional: the id of the task being worked on, `null` when none. */
  current_task: z.string().nullable().optional(),
  /** Optional: tasks done in the plan. */
  tasks_done: count.optional(),
  /** Optional: tasks in the plan. */
  tasks_total: count.optional(),
  /** Optional: the agent's reported cost so far, in US dollars. */
  cost_usd: z.number().nonnegative().optional(),
  /** Optional: while waiting (rate limit, usage limit), when the wait ends; `null` when not waiting. */
  wait_until: isoDateTime.nullable().optional(),
  /** Optional: the terminal id whose loop state this loop writes (for `loop monitor`). */
  terminal_id: z.string().min(1).optional(),
  /** Optional: the plan the loop runs, as given to it. */
  plan_path: z.string().min(1).optional(),
};

/**
 * The schema a status is written with: exactly the known fields (a misspelt one is an error).
 */
export const StatusWriteSchema = z.strictObject(statusShape);

/**
 * The schema a status is read with: the known fields are checked, unknown ones (from a newer
 * writer) are kept.
 */
export const StatusReadSchema = z.looseObject(statusShape);

/**
 * The content of `status.json`: the loop's live state for monitors, with ralph_loop.sh's
 * fields (snake_case, as written) and a few optional ones.
 *
 * @example
 * ```json
 * {
 *   "timestamp": "2025-09-30T12:00:00-04:00",
 *   "loop_count": 5,
 *   "calls_made_this_hour": 42,
 *   "max_calls_per_hour": 100,
 *   "last_action": "executing",
 *   "status": "running",
 *   "exit_reason": "",
 *   "next_reset": "13:00:00"
 * }
 * ```
 */
export type Status = z.output<typeof StatusWriteSchema>;

import type { LockHolder } from "@loop/core";

/** Who holds a terminal's lease: the core's `LockHolder`, and the holder's run id when known. */
export interface PostgresLockHolder extends LockHolder {
  /** The run id the holder was given (`runId` of its store), when it had one. */
  readonly runId?: string;
}

/** The holder columns of a `state_leases` row, as node-postgres returns them. */
export interface LeaseHolderRow {
  /** `holder_host`. */
  readonly holder_host: string;
  /** `holder_pid`. */
  readonly holder_pid: number;
  /** `holder_run_id`. */
  readonly holder_run_id: string | null;
  /** `started_at`. */
  readonly started_at: Date;
}

/** The holder a lease row names (`runId` only when the row has one). */
export function holderOfRow(row: LeaseHolderRow): PostgresLockHolder {
  return {
    pid: row.holder_pid,
    host: row.holder_host,
    startedAt: row.started_at.toISOString(),
    ...(row.holder_run_id === null ? {} : { runId: row.holder_run_id }),
  };
}

/** The holder columns of a lease row, in SQL. */
export const holderColumns = "holder_host, holder_pid, holder_run_id, started_at";

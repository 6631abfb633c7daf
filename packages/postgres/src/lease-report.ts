import type { PostgresLockHolder } from "./lease-holder.js";

/** What `PostgresStateStore.lease` finds: who holds a terminal's lease, and until when. */
export interface LeaseReport {
  /** The holder the lease row names. */
  readonly holder: PostgresLockHolder;
  /** When the lease expires unless renewed, ISO 8601 (by the database's clock). */
  readonly expiresAt: string;
  /** Whether it has expired (by the database's clock): the next `lock` takes it over. */
  readonly expired: boolean;
}

/** The report of a lease row. */
export function leaseReportOfRow(
  row: { readonly expires_at: Date; readonly expired: boolean },
  holder: PostgresLockHolder,
): LeaseReport {
  return { holder, expiresAt: row.expires_at.toISOString(), expired: row.expired };
}

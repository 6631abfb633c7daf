import { hostname } from "node:os";
import { type Clock, type StateLock, StateLockedError } from "@loop/core";
import type pg from "pg";
import {
  holderColumns,
  holderOfRow,
  type LeaseHolderRow,
  type PostgresLockHolder,
} from "./lease-holder.js";
import { LeaseLostError } from "./lease-lost-error.js";
import { inTransaction, query } from "./postgres-connection.js";
import type { TableNames } from "./table-names.js";

/** How a store's leases are kept: from the store's options. */
export interface LeaseSettings {
  /** How long a lease lasts from its last renewal, in milliseconds. */
  readonly leaseMs: number;
  /** How often the holder renews it, in milliseconds. */
  readonly renewEveryMs: number;
  /** Paces the renewals. */
  readonly clock: Clock;
  /** The run id recorded in the lease, when known. */
  readonly runId: string | null;
  /** Called once when a held lease is found lost. */
  readonly onLockLost: ((error: LeaseLostError) => void) | null;
}

/** A lease held by this process, as `StateStore.lock` returns it. */
export interface PostgresStateLock extends StateLock {
  /** This process, as recorded in the lease row. */
  readonly holder: PostgresLockHolder;
  /** The previous holder when an expired lease was taken over, else `null`. */
  readonly takenOverFrom: PostgresLockHolder | null;
  /**
   * Aborted, with a {@link LeaseLostError} as its reason, when the lease is found lost (a renewal
   * or a write found another holder, or no lease): stop the work it guarded. Never aborted by
   * `release`.
   */
  readonly signal: AbortSignal;
}

/** A held lease as the store tracks it, to fence writes to its terminal. */
export interface HeldLease extends PostgresStateLock {
  /** The terminal (or plan, or project) id. */
  readonly terminalId: string;
  /** The random token that tells this holding apart from any other, in the lease row. */
  readonly token: string;
  /**
   * Marks the lease lost (once): aborts {@link PostgresStateLock.signal}, calls `onLockLost`,
   * stops renewing. Returns the error to throw.
   */
  markLost(action: string): Promise<LeaseLostError>;
}

/**
 * Attempts at a lease whose row vanished between two statements: only a row deleted by hand
 * can (takers and releasers of one terminal hold {@link lockLeaseKey} in turn).
 */
const maxAttempts = 20;

/** The values of the lease row this process writes. */
interface OwnRow {
  readonly token: string;
  readonly host: string;
  readonly pid: number;
  readonly runId: string | null;
  readonly leaseMs: number;
}

type Outcome =
  | {
      readonly kind: "acquired";
      readonly startedAt: Date;
      readonly previous: LeaseHolderRow | null;
    }
  | { readonly kind: "live"; readonly holder: LeaseHolderRow }
  | { readonly kind: "vanished" };

/**
 * Takes the lease of `terminalId`: a free one is inserted; an expired one (its `expires_at`
 * past, by the database's clock) is taken over under a row lock, so of any number of
 * contenders on any number of machines exactly one wins; a live one is a `StateLockedError`
 * naming its holder, at once. The holder then renews it every `renewEveryMs`.
 *
 * @param token - this holding's random token; the same in a retry, which so recognises a
 *   lease its broken first attempt did take.
 * @param held - the store's held leases; the new one is added, and removed on release.
 */
export async function acquireLease(
  pool: pg.Pool,
  tables: TableNames,
  terminalId: string,
  settings: LeaseSettings,
  held: Map<string, HeldLease>,
  signal: AbortSignal | undefined,
  token: string,
): Promise<PostgresStateLock> {
  const own: OwnRow = {
    token,
    host: hostname(),
    pid: process.pid,
    runId: settings.runId,
    leaseMs: settings.leaseMs,
  };
  for (let attempt = 1; ; attempt += 1) {
    signal?.throwIfAborted();
    const outcome = await inTransaction(pool, (client) =>
      tryAcquire(client, tables, terminalId, own),
    );
    if (outcome.kind === "live") {
      throw new StateLockedError({ terminalId, holder: holderOfRow(outcome.holder) });
    }
    if (outcome.kind === "acquired") {
      const lease = heldLease(pool, tables, terminalId, own, outcome, settings, held);
      held.set(terminalId, lease);
      return lease;
    }
    if (attempt >= maxAttempts) {
      throw new Error(`the lease row kept vanishing while it was taken (${attempt} attempts)`);
    }
  }
}

async function tryAcquire(
  client: pg.PoolClient,
  tables: TableNames,
  terminalId: string,
  own: OwnRow,
): Promise<Outcome> {
  await lockLeaseKey(client, tables, terminalId);
  const values = [terminalId, own.token, own.host, own.pid, own.runId, own.leaseMs];
  const inserted = await client.query<{ started_at: Date }>(
    `INSERT INTO ${tables.leases}
       (terminal_id, token, holder_host, holder_pid, holder_run_id, started_at, renewed_at, expires_at)
     SELECT $1, $2, $3, $4, $5, now, now, now + $6 * interval '1 millisecond'
       FROM (SELECT date_trunc('milliseconds', clock_timestamp()) AS now) AS time
     ON CONFLICT (terminal_id) DO NOTHING
     RETURNING started_at`,
    values,
  );
  const fresh = inserted.rows[0];
  if (fresh !== undefined) return { kind: "acquired", startedAt: fresh.started_at, previous: null };
  const existing = await client.query<LeaseHolderRow & { expired: boolean; ours: boolean }>(
    `SELECT ${holderColumns}, expires_at <= clock_timestamp() AS expired, token = $2 AS ours
       FROM ${tables.leases} WHERE terminal_id = $1 FOR UPDATE`,
    [terminalId, own.token],
  );
  const row = existing.rows[0];
  if (row === undefined) return { kind: "vanished" };
  // A retry of an attempt that committed before its connection broke: the lease is ours.
  if (row.ours) return { kind: "acquired", startedAt: row.started_at, previous: null };
  if (!row.expired) return { kind: "live", holder: row };
  const taken = await client.query<{ started_at: Date }>(
    `UPDATE ${tables.leases} AS lease
        SET token = $2, holder_host = $3, holder_pid = $4, holder_run_id = $5,
            started_at = time.now, renewed_at = time.now,
            expires_at = time.now + $6 * interval '1 millisecond'
       FROM (SELECT date_trunc('milliseconds', clock_timestamp()) AS now) AS time
      WHERE lease.terminal_id = $1
      RETURNING lease.started_at`,
    values,
  );
  const startedAt = taken.rows[0]?.started_at;
  if (startedAt === undefined) return { kind: "vanished" };
  return { kind: "acquired", startedAt, previous: row };
}

function heldLease(
  pool: pg.Pool,
  tables: TableNames,
  terminalId: string,
  own: OwnRow,
  outcome: Extract<Outcome, { kind: "acquired" }>,
  settings: LeaseSettings,
  held: Map<string, HeldLease>,
): HeldLease {
  const holder: PostgresLockHolder = {
    pid: own.pid,
    host: own.host,
    startedAt: outcome.startedAt.toISOString(),
    ...(own.runId === null ? {} : { runId: own.runId }),
  };
  const lost = new AbortController();
  const stopRenewing = new AbortController();
  let lostError: Promise<LeaseLostError> | null = null;
  let releasing: Promise<void> | null = null;

  const lease: HeldLease = {
    terminalId,
    token: own.token,
    holder,
    takenOverFrom: outcome.previous === null ? null : holderOfRow(outcome.previous),
    signal: lost.signal,
    markLost(action: string): Promise<LeaseLostError> {
      lostError ??= (async () => {
        stopRenewing.abort();
        const heldBy = await currentHolder(pool, tables, terminalId).catch(() => null);
        const error = new LeaseLostError({ terminalId, holder, heldBy, action });
        lost.abort(error);
        try {
          settings.onLockLost?.(error);
        } catch {
          // The report failed; the signal still says it.
        }
        return error;
      })();
      return lostError;
    },
    release(): Promise<void> {
      releasing ??= (async () => {
        stopRenewing.abort();
        try {
          await inTransaction(pool, async (client) => {
            await lockLeaseKey(client, tables, terminalId);
            await client.query(
              `DELETE FROM ${tables.leases} WHERE terminal_id = $1 AND token = $2`,
              [terminalId, own.token],
            );
          });
        } catch (error) {
          releasing = null;
          throw error;
        }
        if (held.get(terminalId) === lease) held.delete(terminalId);
      })();
      return releasing;
    },
  };
  void renewUntilStopped(pool, tables, lease, settings, stopRenewing.signal);
  return lease;
}

/**
 * Renews the lease every `renewEveryMs` until released or lost. A renewal that finds the row
 * gone or holding another token marks the lease lost. One that fails (the database
 * unreachable) is tried again next time: meanwhile the lease may expire and be taken over,
 * which the next renewal, or the next write (fenced on the token), finds.
 */
async function renewUntilStopped(
  pool: pg.Pool,
  tables: TableNames,
  lease: HeldLease,
  settings: LeaseSettings,
  stop: AbortSignal,
): Promise<void> {
  for (;;) {
    await settings.clock.sleep(settings.renewEveryMs, stop);
    if (stop.aborted) return;
    let renewed: number | null;
    try {
      const result = await query(
        pool,
        `UPDATE ${tables.leases}
            SET renewed_at = clock_timestamp(),
                expires_at = clock_timestamp() + $3 * interval '1 millisecond'
          WHERE terminal_id = $1 AND token = $2`,
        [lease.terminalId, lease.token, settings.leaseMs],
      );
      renewed = result.rowCount;
    } catch {
      continue;
    }
    if (stop.aborted) return;
    if (renewed === 0) {
      await lease.markLost("renew the lease");
      return;
    }
  }
}

/**
 * Takes the transaction-scoped advisory lock of one terminal's lease, so that taking and
 * releasing it are serialised: between a taker's `INSERT … ON CONFLICT DO NOTHING` and its
 * `SELECT … FOR UPDATE` no release can delete the row it conflicted with.
 */
async function lockLeaseKey(
  client: pg.PoolClient,
  tables: TableNames,
  terminalId: string,
): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
    `loop.lease.${tables.schema}.${terminalId}`,
  ]);
}

/** Who holds `terminalId`'s lease now, or `null`. */
async function currentHolder(
  pool: pg.Pool,
  tables: TableNames,
  terminalId: string,
): Promise<PostgresLockHolder | null> {
  const result = await query<LeaseHolderRow>(
    pool,
    `SELECT ${holderColumns} FROM ${tables.leases} WHERE terminal_id = $1`,
    [terminalId],
  );
  const row = result.rows[0];
  return row === undefined ? null : holderOfRow(row);
}

import type pg from "pg";
import { query } from "./postgres-connection.js";
import type { TableNames } from "./table-names.js";

/** A document row's two versions, as stored. */
interface DocumentRow {
  readonly current_text: Buffer;
  readonly backup_text: Buffer | null;
}

/**
 * Reads both stored versions of one document, or `null` when it has no row.
 */
export async function selectDocument(
  pool: pg.Pool,
  tables: TableNames,
  terminalId: string,
  key: string,
): Promise<DocumentRow | null> {
  const result = await query<DocumentRow>(
    pool,
    `SELECT current_text, backup_text FROM ${tables.documents}
      WHERE terminal_id = $1 AND key = $2`,
    [terminalId, key],
  );
  return result.rows[0] ?? null;
}

/**
 * The fence of a write: true when no lease token is given (the store holds no lease on the
 * terminal), else only while the lease row still holds that token. `FOR SHARE` keeps a
 * takeover (an `UPDATE` of the row) waiting until the write commits, so every write either
 * lands before the takeover or is refused.
 */
function fence(tables: TableNames): string {
  return `($3::uuid IS NULL OR EXISTS (
      SELECT 1 FROM ${tables.leases} WHERE terminal_id = $1 AND token = $3::uuid FOR SHARE))`;
}

/** The update of a first attempt: current → backup, the new text → current. */
const firstUpdate = `SET backup_text = document.current_text,
    current_text = EXCLUDED.current_text,
    revision = document.revision + 1,
    updated_at = EXCLUDED.updated_at`;

/** The update of a retry: the same, unless the new text is already current (then nothing). */
const retryUpdate = `SET backup_text = CASE WHEN document.current_text = EXCLUDED.current_text
      THEN document.backup_text ELSE document.current_text END,
    current_text = EXCLUDED.current_text,
    revision = document.revision + CASE WHEN document.current_text = EXCLUDED.current_text
      THEN 0 ELSE 1 END,
    updated_at = EXCLUDED.updated_at`;

/**
 * Replaces a document in ONE statement: an upsert whose update moves the current text to the
 * backup and writes the new one, bumping `revision`. PostgreSQL applies it atomically, and
 * concurrent upserts of one row one after another (the row lock), so no write is half-done and
 * none is lost: each one's backup is the version the one before it wrote.
 *
 * A retry (the first attempt's connection broke, so it may or may not have committed) leaves
 * the row alone when its current text already is the new one: that attempt did commit, and
 * moving the text to the backup again would lose the real backup.
 *
 * @param leaseToken - the token of the lease this store holds on the terminal, or `null`.
 * @param retry - whether an attempt of this same write may have committed already.
 * @returns the document's new revision, or `null` when the fence refused the write (the lease
 *   was lost).
 */
export async function upsertDocument(
  pool: pg.Pool,
  tables: TableNames,
  terminalId: string,
  key: string,
  leaseToken: string | null,
  bytes: Buffer,
  retry: boolean,
): Promise<number | null> {
  const update = retry ? retryUpdate : firstUpdate;
  const result = await query<{ revision: string }>(
    pool,
    `INSERT INTO ${tables.documents} AS document
       (terminal_id, key, current_text, backup_text, revision, updated_at)
     SELECT $1, $2, $4, NULL, 1, clock_timestamp() WHERE ${fence(tables)}
     ON CONFLICT (terminal_id, key) DO UPDATE ${update}
     RETURNING revision`,
    [terminalId, key, leaseToken, bytes],
  );
  const revision = result.rows[0]?.revision;
  return revision === undefined ? null : Number(revision);
}

/**
 * Deletes a document (both versions, one row) in one statement, fenced like
 * {@link upsertDocument}.
 *
 * @returns `false` when the fence refused the delete (the lease was lost), else `true`
 *   (whether or not there was a document).
 */
export async function deleteDocumentRow(
  pool: pg.Pool,
  tables: TableNames,
  terminalId: string,
  key: string,
  leaseToken: string | null,
): Promise<boolean> {
  const result = await query<{ allowed: boolean }>(
    pool,
    `WITH allowed AS (SELECT ${fence(tables)} AS allowed),
          deleted AS (
            DELETE FROM ${tables.documents}
             WHERE terminal_id = $1 AND key = $2 AND (SELECT allowed FROM allowed)
          )
     SELECT allowed FROM allowed`,
    [terminalId, key, leaseToken],
  );
  return result.rows[0]?.allowed === true;
}

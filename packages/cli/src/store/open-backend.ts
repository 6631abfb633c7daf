import { LoopError } from "@loop/core";
import { fileBackend } from "./file-backend.js";
import type { ProjectBackend } from "./project-backend.js";

/** Where a command's `--store` came from, for the message when it is not valid. */
export type StoreSource = "--store" | "$LOOP_STORE" | "state.store";

/** The value that chooses where the state is: `files`, or a PostgreSQL URL. */
export interface StoreChoice {
  /** `files` or a `postgres://` (or `postgresql://`) URL. */
  readonly value: string;
  /** Who chose it. */
  readonly source: StoreSource;
}

const POSTGRES_URL = /^postgres(?:ql)?:\/\//i;

/**
 * Opens the backend a store choice names: the file store at `root` for `files`, PostgreSQL for
 * a `postgres://` URL (its module, and node-postgres, loaded only then).
 *
 * @param choice - the value and where it came from.
 * @param root - the file store's root, for `files`.
 * @throws {LoopError} for any other value, naming its source and what would be valid.
 */
export async function openBackend(choice: StoreChoice, root: string): Promise<ProjectBackend> {
  const value = choice.value.trim();
  if (value === "files") return fileBackend(root);
  if (POSTGRES_URL.test(value)) {
    // A path relative to the built command (dist/commands/<name>.js) and to this source file.
    const { postgresBackend } = await import("../store/postgres-backend.js");
    return postgresBackend(value);
  }
  throw new LoopError({
    message: `${choice.source} is ${JSON.stringify(choice.value)}: use files (the project's state folder) or a PostgreSQL URL, postgres://user@host:5432/database.`,
  });
}

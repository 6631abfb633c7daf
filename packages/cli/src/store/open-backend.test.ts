import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LoopError, resolveConfig } from "@loop/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CliIo } from "../cli-io.js";
import { storeChoice } from "../project.js";
import { openBackend } from "./open-backend.js";
import { splitSchema } from "./postgres-backend.js";
import { redactUrl } from "./redact-url.js";

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "loop-open-backend-"));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const io = (env: Record<string, string>) => ({ env }) as unknown as CliIo;
const withStore = (store: string) => resolveConfig({ state: { store } });

describe("storeChoice", () => {
  it("takes --store, else $LOOP_STORE, else the config's state.store", () => {
    const config = withStore("postgres://config/db");
    const env = { LOOP_STORE: "postgres://env/db" };
    expect(storeChoice(io(env), { store: "files" }, config)).toEqual({
      value: "files",
      source: "--store",
    });
    expect(storeChoice(io(env), {}, config)).toEqual({
      value: "postgres://env/db",
      source: "$LOOP_STORE",
    });
    expect(storeChoice(io({ LOOP_STORE: "" }), {}, config)).toEqual({
      value: "postgres://config/db",
      source: "state.store",
    });
    expect(storeChoice(io({}), {}, resolveConfig())).toEqual({
      value: "files",
      source: "state.store",
    });
  });
});

describe("openBackend", () => {
  it("opens the file store at the root for files", async () => {
    const backend = await openBackend({ value: "files", source: "state.store" }, folder);
    expect(backend.kind).toBe("files");
    expect(backend.root).toBe(folder);
    await backend.store.set("t1", "loop_state", "{}");
    expect(await backend.store.terminals()).toEqual(["t1"]);
    await backend.close();
  });

  it("refuses anything else, naming who chose it and what is valid", async () => {
    const refusal = openBackend({ value: "mysql://db/x", source: "$LOOP_STORE" }, folder);
    await expect(refusal).rejects.toBeInstanceOf(LoopError);
    await expect(refusal).rejects.toThrow(
      '$LOOP_STORE is "mysql://db/x": use files (the project\'s state folder) or a PostgreSQL URL, postgres://user@host:5432/database.',
    );
  });

  it("opens PostgreSQL for a postgres:// URL without connecting, and refuses a bad schema", async () => {
    const backend = await openBackend(
      { value: "postgresql://loop:secret@127.0.0.1:1/loops?schema=fleet_a", source: "--store" },
      folder,
    );
    expect(backend.kind).toBe("postgres");
    expect(backend.root).toBeNull();
    expect(backend.where).toBe("postgresql://loop:***@127.0.0.1:1/loops (schema fleet_a)");
    await backend.close();
    await expect(
      openBackend(
        { value: "postgres://127.0.0.1:1/loops?schema=Bad-Name", source: "--store" },
        folder,
      ),
    ).rejects.toThrow(/\?schema=: .*`schema` must be 1 to 63 of a-z/);
  });
});

describe("splitSchema and redactUrl", () => {
  it("takes ?schema= out of the URL node-postgres sees, keeping the other parameters", () => {
    expect(splitSchema("postgres://h/db?sslmode=require&schema=team")).toEqual({
      connectionString: "postgres://h/db?sslmode=require",
      schema: "team",
    });
    expect(splitSchema("postgres://h/db")).toEqual({
      connectionString: "postgres://h/db",
      schema: undefined,
    });
  });

  it("hides a password and leaves a URL without one as it is", () => {
    expect(redactUrl("postgres://loop:p%40ss@db:5432/x")).toBe("postgres://loop:***@db:5432/x");
    expect(redactUrl("postgres://loop@db:5432/x")).toBe("postgres://loop@db:5432/x");
  });
});

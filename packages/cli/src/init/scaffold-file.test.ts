import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeScaffoldFile } from "./scaffold-file.js";

let folder = "";

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "loop-scaffold-"));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("writeScaffoldFile", () => {
  it("creates a missing file and its folders", async () => {
    const path = join(folder, "a", "b", "file.txt");
    expect(await writeScaffoldFile(path, "new\n", "keep")).toBe("created");
    expect(await readFile(path, "utf8")).toBe("new\n");
  });

  it("keeps an existing file unless told to overwrite it", async () => {
    const path = join(folder, "file.txt");
    await writeFile(path, "mine\n");
    expect(await writeScaffoldFile(path, "template\n", "keep")).toBe("kept");
    expect(await readFile(path, "utf8")).toBe("mine\n");
    expect(await writeScaffoldFile(path, "template\n", "overwrite")).toBe("overwritten");
    expect(await readFile(path, "utf8")).toBe("template\n");
    expect(await writeScaffoldFile(path, "template\n", "overwrite")).toBe("unchanged");
  });

  it("refreshes a generated file only when it differs", async () => {
    const path = join(folder, "schema.json");
    await writeFile(path, "{}\n");
    expect(await writeScaffoldFile(path, '{"a":1}\n', "refresh")).toBe("updated");
    expect(await writeScaffoldFile(path, '{"a":1}\n', "refresh")).toBe("unchanged");
    expect(await readFile(path, "utf8")).toBe('{"a":1}\n');
  });

  it("throws the system error for a folder in the way", async () => {
    await expect(writeScaffoldFile(folder, "x", "overwrite")).rejects.toMatchObject({
      code: "EISDIR",
    });
  });
});

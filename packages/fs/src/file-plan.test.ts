import {
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PlanParseError, parsePlan, updatePlan } from "@loop/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { filePlan } from "./file-plan.js";
import { PlanNotFoundError } from "./plan-not-found-error.js";

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "loop-file-plan-"));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** A plan with a byte order mark, CRLF line endings, a tab, trailing spaces and non-ASCII text. */
const crlfPlanWithBom =
  "\uFEFF# Auth — überarbeitet\r\n\r\n## Tasks\r\n- [ ] TASK-001 Design schema  \r\n-\t[ ] TASK-002 Write the API\r\n\r\n## Acceptance Criteria\r\n- [ ] Users can log in\r\n";

describe("filePlan", () => {
  it("checks its path before doing anything", () => {
    expect(() => filePlan(undefined as never)).toThrow(
      "filePlan: `path` must be a non-empty string",
    );
    expect(() => filePlan("")).toThrow("must be a non-empty string");
  });

  it("reads the file's text exactly: byte order mark and CRLF kept", async () => {
    const path = join(directory, "plan.md");
    await writeFile(path, crlfPlanWithBom, "utf8");
    const plan = filePlan(path);
    expect(plan.path).toBe(path);
    const text = await plan.read();
    expect(text).toBe(crlfPlanWithBom);
    expect(text.charCodeAt(0)).toBe(0xfeff);
  });

  it("writes back the same bytes it read", async () => {
    const path = join(directory, "plan.md");
    const original = Buffer.from(crlfPlanWithBom, "utf8");
    await writeFile(path, original);
    const plan = filePlan(path);
    await plan.write(await plan.read());
    expect((await readFile(path)).equals(original)).toBe(true);
  });

  it("round-trips a CRLF plan with a BOM through updatePlan, changing only the box", async () => {
    const path = join(directory, "plan.md");
    const original = Buffer.from(crlfPlanWithBom, "utf8");
    await writeFile(path, original);
    const plan = filePlan(path);
    await plan.write(updatePlan(await plan.read(), { check: ["TASK-002"] }, { file: path }));
    const written = await readFile(path);
    expect(written.length).toBe(original.length);
    const changed = [...written].flatMap((byte, index) =>
      byte === original[index] ? [] : [index],
    );
    expect(changed).toHaveLength(1);
    expect(String.fromCharCode(written[changed[0] ?? 0] ?? 0)).toBe("x");
    expect(written.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(written.toString("utf8")).toBe(crlfPlanWithBom.replace("-\t[ ]", "-\t[x]"));
    const tasks = parsePlan(await plan.read()).tasks;
    expect(tasks.map((task) => [task.id, task.done])).toEqual([
      ["TASK-001", false],
      ["TASK-002", true],
    ]);
  });

  it("reads afresh every time, even when size and modification time are unchanged", async () => {
    const path = join(directory, "plan.md");
    await writeFile(path, "- [ ] TASK-001 a\n");
    const { mtime, atime } = await stat(path);
    const plan = filePlan(path);
    expect(await plan.read()).toBe("- [ ] TASK-001 a\n");
    await writeFile(path, "- [x] TASK-001 a\n");
    await utimes(path, atime, mtime);
    expect(await plan.read()).toBe("- [x] TASK-001 a\n");
  });

  it("throws a PlanNotFoundError naming the path when the file is missing", async () => {
    const path = join(directory, "missing.md");
    const failure = await filePlan(path)
      .read()
      .catch((error: unknown) => error);
    expect(PlanNotFoundError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({
      name: "PlanNotFoundError",
      code: "PLAN_NOT_FOUND",
      path,
      message: `Plan file not found: ${path}`,
      cause: { code: "ENOENT" },
    });
  });

  it("refuses a plan that is not valid UTF-8, pointing at the first invalid byte", async () => {
    const path = join(directory, "plan.md");
    await writeFile(
      path,
      Buffer.concat([
        Buffer.from("# Plan\n\n- [ ] TASK-001 caf", "latin1"),
        Buffer.from([0xe9, 0x0a]),
      ]),
    );
    const failure = await filePlan(path)
      .read()
      .catch((error: unknown) => error);
    expect(PlanParseError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toContain(
      `${path}:3:19 the plan is not valid UTF-8 (byte 0xe9)`,
    );
  });

  it("replaces the file atomically, leaving no temporary file, writes in call order", async () => {
    const path = join(directory, "plan.md");
    await writeFile(path, "- [ ] TASK-001 a\n");
    const plan = filePlan(path);
    await Promise.all(Array.from({ length: 10 }, (_, index) => plan.write(`# version ${index}\n`)));
    expect(await readdir(directory)).toEqual(["plan.md"]);
    expect(await readFile(path, "utf8")).toBe("# version 9\n");
  });

  it("reads its own pending writes", async () => {
    const path = join(directory, "plan.md");
    await writeFile(path, "# old\n");
    const plan = filePlan(path);
    void plan.write("# new\n");
    expect(await plan.read()).toBe("# new\n");
  });

  it("creates the plan when it does not exist yet", async () => {
    const path = join(directory, "plan.md");
    await filePlan(path).write("# Plan\n");
    expect(await readFile(path, "utf8")).toBe("# Plan\n");
  });

  it("keeps a symbolic link, replacing its target", async () => {
    const target = join(directory, "real-plan.md");
    const link = join(directory, "plan.md");
    await writeFile(target, "# old\n");
    await symlink("real-plan.md", link);
    await filePlan(link).write("# new\n");
    expect(await readlink(link)).toBe("real-plan.md");
    expect(await readFile(target, "utf8")).toBe("# new\n");
  });

  it("rejects a text that is not a string", async () => {
    await expect(filePlan(join(directory, "plan.md")).write(42 as never)).rejects.toThrow(
      "must be a string",
    );
  });
});

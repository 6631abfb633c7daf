import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Project } from "../project.js";
import { createConfigReloader } from "./config-reloader.js";

describe("createConfigReloader", () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), "loop-config-reloader-"));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  const projectWith = (configPath: string) =>
    ({ configPath, configGiven: false }) as unknown as Project;

  it("gives the same config object while the file is unchanged, a new one once it changes", async () => {
    const path = join(folder, "config.yaml");
    await writeFile(path, "limits:\n  max_iterations: 7\n");
    const load = createConfigReloader(projectWith(path));
    const first = await load();
    expect(first.limits.max_iterations).toBe(7);
    expect(await load()).toBe(first);
    await writeFile(path, "limits:\n  max_iterations: 8\n");
    const changed = await load();
    expect(changed.limits.max_iterations).toBe(8);
    expect(await load()).toBe(changed);
  });

  it("reads a missing file as the defaults, and sees it appear", async () => {
    const path = join(folder, "missing.yaml");
    const load = createConfigReloader(projectWith(path));
    const defaults = await load();
    expect(await load()).toBe(defaults);
    await writeFile(path, "limits:\n  max_iterations: 3\n");
    expect((await load()).limits.max_iterations).toBe(3);
  });
});

import { describe, expect, it } from "vitest";
import { createAdministrationQueue } from "./administration-queue.js";

/** A task that records its start and ends when `finish` is called. */
function gate(name: string, log: string[]) {
  let finish = () => {};
  const ended = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    task: async () => {
      log.push(name);
      await ended;
      return name;
    },
    finish: () => finish(),
  };
}

describe("createAdministrationQueue", () => {
  it("runs one task at a time per key, and a deferred one only when no urgent one waits", async () => {
    const queue = createAdministrationQueue();
    const log: string[] = [];
    const first = gate("add 1", log);
    const removal = gate("remove 1", log);
    const second = gate("add 2", log);
    const results = [
      queue.run("repo", first.task, "now"),
      queue.run("repo", removal.task, "deferred"),
      queue.run("repo", second.task, "now"),
    ];
    await Promise.resolve();
    expect(log).toEqual(["add 1"]);
    first.finish();
    await results[0];
    await new Promise((resolve) => setImmediate(resolve));
    // The removal was asked for before "add 2", and waits for it.
    expect(log).toEqual(["add 1", "add 2"]);
    second.finish();
    removal.finish();
    expect(await Promise.all(results)).toEqual(["add 1", "remove 1", "add 2"]);
    expect(log).toEqual(["add 1", "add 2", "remove 1"]);
  });

  it("keeps keys apart, and goes on after a task that fails or throws", async () => {
    const queue = createAdministrationQueue();
    const log: string[] = [];
    const held = gate("a", log);
    const other = queue.run("other repo", async () => "b", "now");
    const blocked = queue.run("repo", held.task, "now");
    expect(await other).toBe("b");
    const failing = queue.run(
      "repo",
      () => {
        throw new Error("git failed");
      },
      "now",
    );
    const after = queue.run("repo", async () => "after", "deferred");
    held.finish();
    await blocked;
    await expect(failing).rejects.toThrow("git failed");
    expect(await after).toBe("after");
  });
});

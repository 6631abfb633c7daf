import { afterEach, describe, expect, it } from "vitest";
import { resolveObjects } from "./git-refs.js";
import { readObjectNames } from "./object-reader.js";
import { createTestRepository, type TestRepository } from "./test-repository.js";

let repository: TestRepository | undefined;
afterEach(async () => {
  await repository?.remove();
  repository = undefined;
});

const head = async (test: TestRepository) => (await test.git(["rev-parse", "HEAD"])).trim();

describe("the repository's kept git cat-file", () => {
  it("answers as a new git would: refs moved and made by other gits after it started, missing names", async () => {
    repository = await createTestRepository({ "a.txt": "a\n" });
    const top = repository.repo;
    const first = await head(repository);
    expect(await resolveObjects(top, ["HEAD^{commit}", "refs/heads/nothing^{commit}"])).toEqual([
      first,
      null,
    ]);
    // Another git moves HEAD's branch and makes a branch: the same reader sees both.
    await repository.write("b.txt", "b\n");
    await repository.git(["add", "b.txt"]);
    await repository.git(["commit", "-q", "-m", "second"]);
    const second = await head(repository);
    await repository.git(["branch", "other", first]);
    expect(second).not.toBe(first);
    expect(
      await resolveObjects(top, ["HEAD^{commit}", "refs/heads/other^{commit}", "main^{commit}"]),
    ).toEqual([second, first, second]);
    // Packed refs too.
    await repository.git(["pack-refs", "--all"]);
    await repository.git(["update-ref", "refs/heads/other", second]);
    expect(await resolveObjects(top, ["refs/heads/other^{commit}"])).toEqual([second]);
  });

  it("answers requests made at once in their order", async () => {
    repository = await createTestRepository({ "a.txt": "a\n" });
    const top = repository.repo;
    const commit = await head(repository);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        readObjectNames(top, index % 2 === 0 ? ["HEAD"] : ["missing-ref", "HEAD"]),
      ),
    );
    answers.forEach((lines, index) => {
      expect(lines).toEqual(index % 2 === 0 ? [commit] : ["missing-ref missing", commit]);
    });
  });

  it("fails what it cannot answer (no repository), and resolveObjects then asks a git of its own", async () => {
    await expect(readObjectNames("/nonexistent-folder-of-loop", ["HEAD"])).rejects.toThrow();
    await expect(resolveObjects("/nonexistent-folder-of-loop", ["HEAD"])).rejects.toThrow();
  });
});

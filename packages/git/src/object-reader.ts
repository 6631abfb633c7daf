import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { gitEnvironment } from "./run-git.js";

/**
 * A `git cat-file --batch-check=%(objectname)` kept running per repository, answering the
 * names written to its standard input one line each (an object id, or `<name> missing`). A
 * parallel run reads a few refs of the same repository for every task it opens, integrates and
 * closes; one process for them all saves a git start each (a few milliseconds of a busy
 * machine). git reads each ref afresh for every name (loose refs from their files, packed ones
 * when the file changed), so answers are as current as a new process's.
 *
 * A reader idle for {@link IDLE_MS} ends (its input closed); at most {@link MAX_READERS} are
 * kept, the least recently used ending first. Neither a reader nor its pipes keep the process
 * alive while idle; one that dies (or cannot start) fails the names asked of it, and the caller
 * asks a git of its own.
 */
class ObjectReader {
  readonly #child: ChildProcessWithoutNullStreams;
  #buffer = "";
  /** The requests asked, oldest first: how many lines each waits for, and its answer. */
  readonly #waiting: {
    readonly lines: number;
    readonly resolve: (lines: string[]) => void;
    readonly reject: (error: Error) => void;
  }[] = [];
  #received: string[] = [];
  #ended: Error | null = null;
  #idle: NodeJS.Timeout | null = null;

  constructor(
    cwd: string,
    private readonly onEnd: () => void,
  ) {
    this.#child = spawn("git", ["cat-file", "--batch-check=%(objectname)"], {
      cwd,
      env: gitEnvironment(undefined),
      windowsHide: true,
    });
    this.#child.stdout.setEncoding("utf8");
    this.#child.stdout.on("data", (chunk: string) => this.#take(chunk));
    this.#child.stderr.resume();
    this.#child.stdin.on("error", () => undefined);
    this.#child.on("error", (error) => this.#end(error));
    this.#child.on("close", () => this.#end(new Error("git cat-file ended")));
    this.#sleep();
  }

  /** The object ids of `names` (each a line without a line break), in order; raw lines. */
  ask(names: readonly string[]): Promise<string[]> {
    if (this.#ended !== null) return Promise.reject(this.#ended);
    this.#wake();
    return new Promise((resolve, reject) => {
      this.#waiting.push({ lines: names.length, resolve, reject });
      this.#child.stdin.write(`${names.join("\n")}\n`);
    });
  }

  /** Closes its input: git ends once it has answered what it was asked. */
  close(): void {
    this.#child.stdin.end();
  }

  #take(chunk: string): void {
    this.#buffer += chunk;
    let newline = this.#buffer.indexOf("\n");
    while (newline >= 0) {
      this.#received.push(this.#buffer.slice(0, newline));
      this.#buffer = this.#buffer.slice(newline + 1);
      newline = this.#buffer.indexOf("\n");
    }
    for (let first = this.#waiting[0]; first !== undefined; first = this.#waiting[0]) {
      if (this.#received.length < first.lines) break;
      this.#waiting.shift();
      first.resolve(this.#received.splice(0, first.lines));
    }
    if (this.#waiting.length === 0) this.#sleep();
  }

  #end(error: Error): void {
    if (this.#ended !== null) return;
    this.#ended = error;
    if (this.#idle !== null) clearTimeout(this.#idle);
    for (const request of this.#waiting.splice(0)) request.reject(error);
    this.onEnd();
  }

  /** Asked something: the process and its pipes keep Node alive until it answers. */
  #wake(): void {
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = null;
    this.#child.ref();
    for (const stream of [this.#child.stdin, this.#child.stdout, this.#child.stderr]) {
      (stream as unknown as { ref?(): void }).ref?.();
    }
  }

  /** Nothing asked: neither the process nor its pipes keep Node alive; it ends when idle. */
  #sleep(): void {
    this.#child.unref();
    for (const stream of [this.#child.stdin, this.#child.stdout, this.#child.stderr]) {
      (stream as unknown as { unref?(): void }).unref?.();
    }
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = setTimeout(() => this.close(), IDLE_MS);
    this.#idle.unref();
  }
}

/** How long a reader waits unasked before it ends. */
const IDLE_MS = 2_000;
/** The most readers kept at once (one per repository). */
const MAX_READERS = 4;
/** The readers, by repository folder, the most recently used last. */
const readers = new Map<string, ObjectReader>();

/**
 * The raw `--batch-check=%(objectname)` lines git answers for `names` in the repository at
 * `cwd`, through its kept reader; rejects when the reader cannot answer (the caller then runs a
 * git of its own).
 *
 * @param cwd - the repository folder.
 * @param names - revisions, none holding a line break.
 */
export function readObjectNames(cwd: string, names: readonly string[]): Promise<string[]> {
  let reader = readers.get(cwd);
  if (reader === undefined) {
    const made: ObjectReader = new ObjectReader(cwd, () => {
      if (readers.get(cwd) === made) readers.delete(cwd);
    });
    reader = made;
    for (const [folder, oldest] of readers) {
      if (readers.size < MAX_READERS) break;
      readers.delete(folder);
      oldest.close();
    }
  }
  readers.delete(cwd);
  readers.set(cwd, reader);
  return reader.ask(names);
}

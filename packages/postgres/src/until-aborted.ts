/**
 * `work`, given up on when `signal` fires: rejects at once with the signal's reason (also when
 * it has already fired), while `work` itself runs on and its outcome is ignored — a statement
 * sent to the server cannot be taken back, so it may still finish there.
 *
 * @param work - what is under way.
 * @param signal - the caller's signal, if any.
 */
export function untilAborted<Result>(
  work: Promise<Result>,
  signal: AbortSignal | undefined,
): Promise<Result> {
  if (signal === undefined) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<Result>((resolve, reject) => {
    const abort = (): void => {
      work.catch(() => undefined);
      reject(signal.reason);
    };
    signal.addEventListener("abort", abort, { once: true });
    work.then(
      (result) => {
        signal.removeEventListener("abort", abort);
        resolve(result);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      },
    );
  });
}

let counter = 0;

/** The default run id: the start time in base 36 and a counter, unique within one running program. */
export function defaultRunId(now: number): string {
  counter += 1;
  return `${now.toString(36)}-${counter.toString(36)}`;
}

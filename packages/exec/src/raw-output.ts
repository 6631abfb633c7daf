/** The kept end of one output stream, and how much of its start was dropped. */
export interface KeptOutput {
  /** The kept tail, decoded as UTF-8. */
  readonly text: string;
  /** Bytes of the stream's start that are not in `text`: 0 when it is whole. */
  readonly droppedBytes: number;
}

/** The line that stands for a stream's dropped start. */
function cutMarker(stream: "stdout" | "stderr", output: KeptOutput): string {
  const kept = Buffer.byteLength(output.text, "utf8");
  return `[loop: the first ${output.droppedBytes} bytes of ${stream} were cut; the last ${kept} are kept]\n`;
}

function withMarker(stream: "stdout" | "stderr", output: KeptOutput): string {
  return output.droppedBytes > 0 ? cutMarker(stream, output) + output.text : output.text;
}

/**
 * A run's raw output, as `ExecutionResult.raw` carries it: stdout as the agent printed it, then,
 * when it wrote any stderr, a line `--- stderr ---` and stderr. A stream whose start was dropped
 * (it outgrew the executor's `tailBytes`) begins with the line
 * `[loop: the first <n> bytes of stdout were cut; the last <m> are kept]`.
 *
 * @param stdout - the kept end of standard output.
 * @param stderr - the kept end of standard error.
 * @returns the raw output; `""` when the agent printed nothing.
 */
export function rawOutput(stdout: KeptOutput, stderr: KeptOutput): string {
  const out = withMarker("stdout", stdout);
  if (stderr.text === "" && stderr.droppedBytes === 0) return out;
  const separator = out === "" || out.endsWith("\n") ? "" : "\n";
  return `${out}${separator}--- stderr ---\n${withMarker("stderr", stderr)}`;
}

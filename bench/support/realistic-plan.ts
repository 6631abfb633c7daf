// A plan shaped like the ones users write, at any size: a title, a RALPH_STATUS section, phases
// under headings, task items with nested sub-items, a fenced code block indented under some
// items, notes in block quotes, and acceptance criteria at the end. Issue 15 measured the parser
// on this shape (the bench's older flat one-liners always took the fast path).

/** The id of task `index` (from 0): `TASK-00001`. */
export function realisticTaskId(index: number): string {
  return `TASK-${String(index + 1).padStart(5, "0")}`;
}

/**
 * A realistic plan of `taskCount` tasks, `doneEvery`-th checked (0: none).
 *
 * @param taskCount - how many tasks.
 * @param options - which are checked, and how many requirements the acceptance criteria list.
 */
export function realisticPlan(
  taskCount: number,
  options: { readonly doneEvery?: number; readonly requirements?: number } = {},
): string {
  const doneEvery = options.doneEvery ?? 3;
  const lines = [
    "# Feature: inventory service",
    "",
    "Build the inventory service described in docs/spec.md. Keep every change small and tested.",
    "",
    "## RALPH_STATUS",
    "",
    "- EXIT_SIGNAL: false",
    "- completion_indicators: 0",
    `- current_task: ${realisticTaskId(0)}`,
    "",
    "## Tasks",
  ];
  for (let index = 0; index < taskCount; index += 1) {
    if (index % 40 === 0) {
      lines.push("", `### Phase ${index / 40 + 1}: part ${index / 40 + 1} of the service`, "");
      lines.push("> Work through these in order; each depends on the one before.", "");
    }
    const done = doneEvery > 0 && index % doneEvery === 0;
    lines.push(
      `- [${done ? "x" : " "}] ${realisticTaskId(index)} Implement the **${index + 1}th** endpoint of \`inventory/${index}\``,
    );
    if (index % 4 === 1) {
      lines.push("  - Validate the request body against the schema");
      lines.push("  - Return 404 when the item does not exist");
    }
    if (index % 10 === 5) {
      lines.push(
        "",
        "  ```ts",
        `  export const route${index} = "/inventory/${index}";`,
        "  ```",
        "",
      );
    }
  }
  lines.push("", "## Acceptance Criteria", "");
  const requirements = options.requirements ?? Math.max(5, Math.ceil(taskCount / 10));
  for (let index = 0; index < requirements; index += 1) {
    lines.push(
      `- [ ] The ${index + 1}th endpoint of inventory ${index * 10} returns 404 for a missing item`,
    );
  }
  lines.push("");
  return lines.join("\n");
}

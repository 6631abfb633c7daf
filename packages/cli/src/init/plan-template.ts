/**
 * The text of a new `plan.md`: an example plan in the format of `docs/plan-format.md`, to edit
 * into the real one. It has a `RALPH_STATUS` section (the loop's own notes: `EXIT_SIGNAL`,
 * `completion_indicators`, `current_task`), open `- [ ] TASK-001 …` tasks under a `Tasks`
 * heading, an optional task under `Nice to Have`, `Acceptance Criteria` the loop's
 * verification checks the finished tasks against, and the `Notes` section the default prompt
 * asks the agent to write its decisions in.
 *
 * @returns the markdown, ending with a newline.
 */
export function planTemplate(): string {
  return `# Plan: describe what this loop builds

Replace the example tasks with your own: one small, checkable step each. The agent works on the
first open task, checks its box (\`- [x]\`) when it is done, and sets \`EXIT_SIGNAL: true\` below
when it believes everything is finished. The format is in docs/plan-format.md; \`loop validate\`
checks this file.

## RALPH_STATUS

- EXIT_SIGNAL: false
- completion_indicators: 0
- current_task: TASK-001

## Tasks

- [ ] TASK-001 Write down the design of the feature in docs/design.md
- [ ] TASK-002 Implement the core module, with unit tests
- [ ] TASK-003 Expose it in the public API and document it
- [ ] TASK-004 Run the whole test suite and fix what fails

## Nice to Have

- [ ] TASK-005 Add an example to the README

## Acceptance Criteria

- [ ] The design is written down in docs/design.md
- [ ] The core module is implemented and unit tested
- [ ] The whole test suite passes

## Notes

Decisions the agent made on its own, and how it resolved what verification found.
`;
}

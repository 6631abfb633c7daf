/** What every prompt says about running headless. */
const HEADLESS =
  "You are running headless in an autonomous development loop that runs you again and again " +
  "over a plan. Nobody reads your answer while the loop runs and nobody will answer a " +
  "question. When something is unclear, choose the most sensible option, write the decision " +
  "and your reason in the plan's Notes section, and go on.";

/** How the agent reports, around the `{{status_block}}` placeholder. */
const REPORT = `## Report

End your answer with this block, exactly in this form, each field filled in honestly with one of its allowed values:

\`\`\`text
{{status_block}}
\`\`\`

- \`STATUS\`: \`BLOCKED\` when you cannot go on without a human (give the reason in \`RECOMMENDATION\`), \`COMPLETE\` only when the whole plan is done and verified, \`IN_PROGRESS\` otherwise.
- \`TASKS_COMPLETED_THIS_LOOP\`: how many task boxes you checked in this iteration. \`FILES_MODIFIED\`: how many files you changed.
- \`TESTS_STATUS\`: what the tests you ran in this iteration show; \`NOT_RUN\` if you ran none.
- \`EXIT_SIGNAL\`: \`false\`, unless every task of the plan is checked and verified and nothing is left to do.
- \`RECOMMENDATION\`: one line: what should happen next.
`;

/**
 * The prompt the loop gives the agent when the caller gives no template. Its placeholders are
 * filled in by `buildPrompt`; `{{assignment}}` is the task (or the wrap-up) with its rules, and
 * `{{context}}` the sections that apply this iteration. See `docs/prompts.md`.
 */
export const DEFAULT_PROMPT_TEMPLATE = `# Iteration {{iteration}} of an autonomous development loop

${HEADLESS}

The plan is \`{{plan_path}}\`. Read it first.

{{assignment}}

{{context}}

${REPORT}`;

/**
 * What the loop appends to a template without placeholders (a ralph_loop.sh `PROMPT.md`), and
 * the value of `{{loop_instructions}}`: the headless rules, the assignment, the context and the
 * report, so the agent still learns its task and how to report.
 */
export const LOOP_INSTRUCTIONS_TEMPLATE = `## Loop instructions

${HEADLESS}

This is iteration {{iteration}}. The plan is \`{{plan_path}}\`.

{{assignment}}

{{context}}

${REPORT}`;

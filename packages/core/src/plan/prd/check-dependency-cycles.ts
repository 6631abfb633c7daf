import { findDependencyCycles } from "./find-dependency-cycles.js";
import { issueAtValue } from "./json-location.js";
import type { StoryDraft } from "./story-draft.js";
import type { StoryRule } from "./story-rule.js";

/**
 * Stories must not depend on each other in a circle, or none of them could ever start.
 * Each cycle is one issue, located at the dependency of its first story (in document
 * order) on the next, and naming the whole cycle: `A -> B -> C -> A`.
 */
export const checkDependencyCycles: StoryRule = ({ document, drafts }) => {
  const byId = new Map<string, StoryDraft>();
  for (const draft of drafts) {
    if (draft.id !== null && !byId.has(draft.id)) byId.set(draft.id, draft);
  }
  const edges = new Map(
    [...byId].map(([id, draft]) => [
      id,
      draft.dependencies.filter((dependency) => byId.has(dependency)),
    ]),
  );
  return findDependencyCycles([...byId.keys()], edges).flatMap((cycle) => {
    const [start, next] = cycle;
    const draft = start === undefined ? undefined : byId.get(start);
    if (start === undefined || draft === undefined) return [];
    const position = draft.dependencies.indexOf(next ?? start);
    const path = draft.dependencyPaths[position] ?? draft.path;
    const names = [...cycle, start].map((id) => `\`${id}\``).join(" -> ");
    return [issueAtValue(document.root, path, `dependency cycle: ${names}`)];
  });
};

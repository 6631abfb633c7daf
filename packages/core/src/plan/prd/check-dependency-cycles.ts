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
  if (dependsOnlyBackwards(byId)) return [];
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

/**
 * Whether every story (the first with its id) depends only on stories before it, itself
 * aside: then document order sorts the graph and it has no cycle. The common case (each story
 * builds on earlier ones) needs no search.
 */
function dependsOnlyBackwards(byId: ReadonlyMap<string, StoryDraft>): boolean {
  for (const [id, draft] of byId) {
    for (const dependency of draft.dependencies) {
      const target = byId.get(dependency);
      if (target !== undefined && dependency !== id && target.index >= draft.index) return false;
    }
  }
  return true;
}

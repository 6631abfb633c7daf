import { issueAtValue } from "./json-location.js";
import { nearestStoryId } from "./nearest-story-id.js";
import type { StoryRule } from "./story-rule.js";

/**
 * Every dependency must name another story of the document: a dependency on the story
 * itself is an issue, and so is one on an unknown id (with the nearest existing id as a
 * suggestion). Each issue is located at the dependency.
 */
export const checkStoryDependencies: StoryRule = ({ document, drafts }) => {
  const ids = new Set(drafts.flatMap((draft) => (draft.id === null ? [] : [draft.id])));
  return drafts.flatMap((draft) =>
    draft.dependencies.flatMap((dependency, position) => {
      const path = draft.dependencyPaths[position] ?? draft.path;
      if (dependency === draft.id) {
        return [issueAtValue(document.root, path, `story \`${draft.id}\` depends on itself`)];
      }
      if (ids.has(dependency)) return [];
      const others = [...ids].filter((id) => id !== draft.id);
      const suggestion = nearestStoryId(dependency, others);
      const hint = suggestion === null ? "" : `; did you mean \`${suggestion}\`?`;
      return [
        issueAtValue(document.root, path, `depends on unknown story \`${dependency}\`${hint}`),
      ];
    }),
  );
};

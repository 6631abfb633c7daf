import { distance } from "fastest-levenshtein";
import { type ConfigKeyPath, configKeyPaths, configKeysAt } from "./config-keys.js";

/** One valid key that an unknown key may have meant. */
interface Candidate {
  /** The candidate's full key path. */
  readonly path: ConfigKeyPath;
  /** Whether the candidate sits in the same mapping as the unknown key. */
  readonly sameLevel: boolean;
  /** Edit distance between the normalised unknown key and the candidate's name. */
  readonly distance: number;
}

/**
 * Normalises a key for comparison: camelCase and kebab-case become snake_case, letters
 * lower case, so `maxIterations` and `Max-Iterations` both match `max_iterations`.
 */
function normalizeKey(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[-\s]+/g, "_");
}

/** The largest edit distance at which a key still counts as a misspelling of another. */
function closeEnough(key: string): number {
  return Math.max(2, Math.floor(key.length * 0.4));
}

/** Whether `path` is `parent` followed by one key. */
function isChildOf(path: ConfigKeyPath, parent: ConfigKeyPath): boolean {
  return path.length === parent.length + 1 && parent.every((key, index) => path[index] === key);
}

/** Every key of the schema scored against `key`, found under `parent`. */
function candidates(key: string, parent: ConfigKeyPath): Candidate[] {
  const normalized = normalizeKey(key);
  return configKeyPaths().map((path) => ({
    path,
    sameLevel: isChildOf(path, parent),
    distance: distance(normalized, path[path.length - 1] ?? ""),
  }));
}

/** Renders a list of choices as `"a"`, `"a" or "b"`, `"a", "b" or "c"`. */
function orList(items: readonly string[]): string {
  const quoted = items.map((item) => `"${item}"`);
  const last = quoted.pop();
  return quoted.length === 0 ? (last ?? "") : `${quoted.join(", ")} or ${last}`;
}

/**
 * The valid keys an unknown key most likely meant: the nearest key in the same mapping,
 * or, when the key belongs at another level (`max_iterations` at the top level), its
 * full path there. Empty when no key is reasonably close.
 *
 * @param key - the unknown key as written.
 * @param parent - the path of the mapping it was found in (`[]` for the top level).
 * @returns the suggested keys: names for the same level, dotted paths for other levels.
 */
export function suggestKeys(key: string, parent: ConfigKeyPath): string[] {
  const scored = candidates(key, parent);
  const best = Math.min(...scored.map((candidate) => candidate.distance));
  if (best > closeEnough(key)) return [];
  const nearest = scored.filter((candidate) => candidate.distance === best);
  const sameLevel = nearest.filter((candidate) => candidate.sameLevel);
  if (sameLevel.length > 0) return sameLevel.map((candidate) => candidate.path.at(-1) ?? "");
  return nearest.map((candidate) => candidate.path.join("."));
}

/**
 * The message for an unknown key: a suggestion when a valid key is close
 * (`unknown key "min_completion_indicatorz" — did you mean "min_completion_indicators"?`),
 * otherwise the valid keys of that mapping.
 *
 * @param key - the unknown key as written.
 * @param parent - the path of the mapping it was found in (`[]` for the top level).
 */
export function unknownKeyMessage(key: string, parent: ConfigKeyPath): string {
  const suggestions = suggestKeys(key, parent);
  if (suggestions.length > 0) {
    return `unknown key "${key}" — did you mean ${orList(suggestions)}?`;
  }
  const where = parent.length === 0 ? "at the top level" : `under ${parent.join(".")}`;
  return `unknown key "${key}" — valid keys ${where}: ${configKeysAt(parent).join(", ")}`;
}

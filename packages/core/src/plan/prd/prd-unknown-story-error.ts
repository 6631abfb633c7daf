import { LoopError } from "../../errors/loop-error.js";
import { formatUnknownStoryIds, type UnknownStoryId } from "./unknown-story-id.js";

const marker = "loop.error.PrdUnknownStoryError";
const symbol = Symbol.for(marker);

/**
 * A question about a story that the prd.json does not have, such as
 * `storyDependenciesMet(prd, "US-07")`. Code: `PRD_UNKNOWN_STORY`.
 */
export class PrdUnknownStoryError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** The id asked about, with the nearest existing id. */
  readonly unknownId: UnknownStoryId;

  /** @param options - the unknown id, with the nearest existing id. */
  constructor(options: { readonly unknownId: UnknownStoryId }) {
    super(
      {
        message: `The prd.json has no story with id ${formatUnknownStoryIds([options.unknownId])}`,
      },
      "PrdUnknownStoryError",
      "PRD_UNKNOWN_STORY",
    );
    this.unknownId = options.unknownId;
  }

  /** Whether `error` is a {@link PrdUnknownStoryError}, from any copy of the package. */
  static override isInstance(error: unknown): error is PrdUnknownStoryError {
    return LoopError.hasMarker(error, marker);
  }
}

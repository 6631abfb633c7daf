import { LoopError } from "../../errors/loop-error.js";
import { formatUnknownStoryIds, type UnknownStoryId } from "./unknown-story-id.js";

const marker = "loop.error.PrdUpdateError";
const symbol = Symbol.for(marker);

/** Options of {@link PrdUpdateError}. */
export interface PrdUpdateErrorOptions {
  /** The ids the edit named that no story has, each with the nearest existing id. At least one. */
  readonly unknownIds: readonly UnknownStoryId[];
  /** The prd.json's file name or path, used in the message. */
  readonly file?: string | undefined;
}

/**
 * An edit of a prd.json that names stories the document does not have. Nothing was
 * changed. Code: `PRD_UPDATE_ERROR`.
 *
 * @example
 * ```ts
 * try {
 *   text = updatePrd(text, { passes: { "US-07": true } });
 * } catch (error) {
 *   if (PrdUpdateError.isInstance(error)) console.error(error.unknownIds);
 *   else throw error;
 * }
 * ```
 */
export class PrdUpdateError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** The ids that name no story, each with the nearest existing id. */
  readonly unknownIds: readonly UnknownStoryId[];
  /** The prd.json's file name or path, when the caller gave one. */
  readonly file: string | undefined;

  /** @param options - the unknown ids and the prd.json's file name. */
  constructor(options: PrdUpdateErrorOptions) {
    const where = options.file === undefined ? "prd.json" : options.file;
    const noun = options.unknownIds.length === 1 ? "story" : "stories";
    super(
      {
        message: `Cannot update ${where}: no ${noun} with id ${formatUnknownStoryIds(options.unknownIds)}`,
      },
      "PrdUpdateError",
      "PRD_UPDATE_ERROR",
    );
    this.unknownIds = options.unknownIds;
    this.file = options.file;
  }

  /** Whether `error` is a {@link PrdUpdateError}, from any copy of the package. */
  static override isInstance(error: unknown): error is PrdUpdateError {
    return LoopError.hasMarker(error, marker);
  }
}

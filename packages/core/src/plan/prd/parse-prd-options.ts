/** Options of `parsePrd` and `updatePrd`. */
export interface ParsePrdOptions {
  /** The prd.json's file name or path, used in error messages (`prd.json:4:17 …`). */
  readonly file?: string | undefined;
}

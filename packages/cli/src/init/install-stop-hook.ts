import { atomicWriteFile } from "@loop/fs";
import { readTextIfExists } from "../read-if-exists.js";
import { mergeStopHook, type StopHookSettingsOptions } from "./stop-hook-settings.js";

/** What {@link installStopHook} did. */
export type StopHookInstall =
  /** The settings file did not exist; it was created with the hook alone. */
  | { readonly outcome: "created" }
  /** The hook was added to the existing settings, everything else kept. */
  | { readonly outcome: "updated" }
  /** The hook was already installed; the file was not touched. */
  | { readonly outcome: "present" }
  /** The file is not valid settings; it was not touched. */
  | {
      readonly outcome: "invalid";
      readonly message: string;
      readonly line?: number;
      readonly column?: number;
    };

/**
 * Registers the Stop hook (and the block cap that lets the loop's iterations run) in a Claude
 * Code settings file (`.claude/settings.json`): creates the file, or merges them into it with
 * {@link mergeStopHook} and replaces it atomically. An invalid file is never written.
 *
 * @param path - the settings file, absolute.
 * @param options - the hook's command and the block cap.
 * @returns what was done.
 * @throws the Node.js system error when the file cannot be read or written.
 */
export async function installStopHook(
  path: string,
  options: StopHookSettingsOptions = {},
): Promise<StopHookInstall> {
  const text = await readTextIfExists(path);
  const merge = mergeStopHook(text, options);
  if (merge.kind === "invalid") {
    const { kind: _kind, ...problem } = merge;
    return { outcome: "invalid", ...problem };
  }
  if (merge.kind === "present") return { outcome: "present" };
  await atomicWriteFile(path, merge.text, { createDirectory: true });
  return { outcome: text === null ? "created" : "updated" };
}

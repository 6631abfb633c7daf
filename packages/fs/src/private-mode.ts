/**
 * The permissions of what the loop writes — state, logs, `status.json`, iteration logs: they
 * hold the agent's output and errors, which can hold secrets, so only their owner may read
 * them. Given exactly, whatever the umask, to files and folders the loop creates (a file that
 * exists keeps its own).
 */
export const PRIVATE_FILE_MODE = 0o600;

/** The permissions of a folder the loop creates for its files: see {@link PRIVATE_FILE_MODE}. */
export const PRIVATE_FOLDER_MODE = 0o700;

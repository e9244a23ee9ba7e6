import { makeDirectories } from '../../src/sdk/index.js';

/**
 * Creates the key file's directory and its missing parents with mode 0700, so no other user can list
 * the keys' folder. A filesystem that makes no new directories (/proc) is an error naming the directory,
 * never a wait without end.
 */
export function makeKeyDirectory(dir: string): Promise<void> {
  return makeDirectories(dir, { mode: 0o700 });
}

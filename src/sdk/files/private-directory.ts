import { chmod, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { nodeErrorCode } from './error-facts.js';
import { makeDirectories } from './make-directories.js';

/** The folder, beside the configuration, where Sluice keeps its own state: the snapshot, token-auth's keys, a background server's files. */
export const STATE_FOLDER_NAME = '.sluice';

/** The permission bits of the group and of other users. */
const OPEN_TO_OTHERS = 0o077;

/**
 * Creates `dir` and its missing parents with mode 0700 ({@link makeDirectories}). When `dir` is a
 * {@link STATE_FOLDER_NAME} folder that exists already open to other users (earlier releases created it
 * 0755), it is made 0700 as well: it holds token-auth's keys by default. Any other folder that exists keeps
 * its mode, since it may be a working directory that others share; so does a `.sluice` folder the server
 * does not own and may not change. Resolves with the mode (`0o755`, say) a `.sluice` folder had when it
 * was made private, undefined otherwise.
 */
export async function makePrivateDirectory(dir: string): Promise<number | undefined> {
  await makeDirectories(dir, { mode: 0o700 });
  if (basename(dir) !== STATE_FOLDER_NAME) return undefined;
  const mode = (await stat(dir)).mode & 0o777;
  if ((mode & OPEN_TO_OTHERS) === 0) return undefined;
  try {
    await chmod(dir, mode & ~OPEN_TO_OTHERS);
  } catch (error) {
    if (nodeErrorCode(error) === 'EPERM') return undefined;
    throw error;
  }
  return mode;
}

import { makePrivateDirectory } from '../../src/sdk/index.js';

/**
 * Creates the key file's directory and its missing parents with mode 0700, so no other user can list
 * the keys' folder; a `.sluice` folder that exists open to others is made 0700 too
 * (`makePrivateDirectory`). A filesystem that makes no new directories (/proc) is an error naming the
 * directory, never a wait without end.
 */
export async function makeKeyDirectory(dir: string): Promise<void> {
  await makePrivateDirectory(dir);
}

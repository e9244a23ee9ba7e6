import { chmod, mkdir, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';

/** Where the kernel refuses to look for a process that may not trace process 1, root in most containers included. */
const REFUSED_TO_ROOT = '/proc/1/root/sluice-unreadable';

/**
 * Makes `path` a directory this process may not look into, and answers how to undo it (so that the temp
 * directory can be removed). An ordinary user gets a directory of mode 000; root, whom modes do not stop,
 * a symbolic link into `/proc/1/root`. Throws when neither is refused here, so that a test relying on it
 * cannot pass without the refusal happening.
 */
export async function makeUnreadableDirectory(path: string): Promise<() => Promise<void>> {
  let restore = (): Promise<void> => Promise.resolve();
  if (process.getuid?.() === 0) {
    await symlink(REFUSED_TO_ROOT, path);
  } else {
    await mkdir(path);
    await chmod(path, 0o000);
    restore = () => chmod(path, 0o755);
  }
  const refused = await stat(join(path, 'model.yaml')).then(
    () => false,
    (error: unknown) => (error as { code?: unknown }).code === 'EACCES',
  );
  if (!refused) {
    await restore();
    throw new Error(`${path}: this system lets the process look into it, so the test cannot check what an unreadable directory does`);
  }
  return restore;
}

import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // Some filesystems cannot sync a directory; the rename is still atomic there.
  } finally {
    await handle.close();
  }
}

/**
 * Writes `content` as JSON to `file` atomically with mode 0600: a new temporary file beside it (created
 * 0600, so the keys are never readable by others, whatever the umask), synced, then renamed over `file`.
 * A reader sees the old keys or the new ones, never a partial file. A missing directory is created 0700.
 */
export async function writeKeyFile(file: string, content: unknown): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(content, null, 2)}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await chmod(temporary, 0o600);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(dir);
}

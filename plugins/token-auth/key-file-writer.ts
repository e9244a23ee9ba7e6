import { randomBytes } from 'node:crypto';
import { chmod, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { types } from 'node:util';
import { SluiceError } from '../../src/sdk/index.js';
import { makeKeyDirectory } from './key-directory.js';

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

function writeFailed(file: string, error: unknown): SluiceError {
  const reason = types.isNativeError(error) ? error.message : String(error);
  return new SluiceError(
    'SLUICE_PLUGIN_FAILED',
    `token-auth cannot write its key file ${file} (${reason}); make its directory writable by the server, or set \`keyFile\` in token-auth's config to a path that is`,
    { plugin: 'token-auth', file },
    { cause: error },
  );
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const dir = dirname(file);
  await makeKeyDirectory(dir);
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', 0o600);
  try {
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await chmod(temporary, 0o600);
    await rename(temporary, file);
  } catch (error) {
    // Never leave a copy of the keys behind, whole or partial.
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(dir);
}

/**
 * Writes `content` as JSON to `file` atomically with mode 0600: a new temporary file beside it (created
 * 0600, so the keys are never readable by others, whatever the umask), synced, then renamed over `file`.
 * A reader sees the old keys or the new ones, never a partial file, and a failed write leaves no
 * temporary file behind. A missing directory is created 0700. A failure is `SLUICE_PLUGIN_FAILED` naming
 * the file.
 */
export async function writeKeyFile(file: string, content: unknown): Promise<void> {
  try {
    await writeAtomically(file, `${JSON.stringify(content, null, 2)}\n`);
  } catch (error) {
    throw writeFailed(file, error);
  }
}

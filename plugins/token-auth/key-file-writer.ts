import { dirname } from 'node:path';
import { types } from 'node:util';
import { SluiceError, writeFileAtomic } from '../../src/sdk/index.js';
import { makeKeyDirectory } from './key-directory.js';

function writeFailed(file: string, error: unknown): SluiceError {
  const reason = types.isNativeError(error) ? error.message : String(error);
  return new SluiceError(
    'SLUICE_PLUGIN_FAILED',
    `token-auth cannot write its key file ${file} (${reason}); make its directory writable by the server, or set \`keyFile\` in token-auth's config to a path that is`,
    { plugin: 'token-auth', file },
    { cause: error },
  );
}

/**
 * Writes `content` as JSON to `file` atomically with mode 0600 (the SDK's {@link writeFileAtomic}: the
 * keys are never readable by others, whatever the umask). A reader sees the old keys or the new ones,
 * never a partial file, and a failed write leaves no temporary file behind. A missing directory is
 * created 0700. A failure is `SLUICE_PLUGIN_FAILED` naming the file.
 */
export async function writeKeyFile(file: string, content: unknown): Promise<void> {
  try {
    await makeKeyDirectory(dirname(file));
    await writeFileAtomic(file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  } catch (error) {
    throw writeFailed(file, error);
  }
}

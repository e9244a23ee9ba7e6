import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { MODEL_FILE_NAME } from '../manifest/model-directory.js';
import { syncDirectory } from '../../sdk/files/atomic-write.js';

/** A URL path's last segment ending in `.onnx`: a bare model file rather than an archive. */
export function onnxFileNameOf(url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const last = decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
  return last.toLowerCase().endsWith('.onnx') && last.length > '.onnx'.length ? last : undefined;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Moves the downloaded model file `file` into a model directory of its own,
 * `<extractedRoot>/<name>-onnx-<sha256, 12 hex>/model.onnx`, which `loadModelDirectory` serves with a made
 * manifest. The directory appears whole (made beside it, then renamed); the same file downloaded again
 * reuses it. Returns the directory.
 */
export async function placeOnnxFile(file: string, extractedRoot: string, name: string): Promise<string> {
  const dir = join(extractedRoot, `${name}-onnx-${(await sha256Of(file)).slice(0, 12)}`);
  if (await exists(join(dir, MODEL_FILE_NAME))) return dir;
  const work = join(extractedRoot, `.tmp-${randomBytes(8).toString('hex')}`);
  await mkdir(work);
  try {
    await rename(file, join(work, MODEL_FILE_NAME));
    await rename(work, dir);
  } catch (error) {
    await rm(work, { recursive: true, force: true });
    if (await exists(join(dir, MODEL_FILE_NAME))) return dir;
    throw error;
  }
  await syncDirectory(extractedRoot);
  return dir;
}

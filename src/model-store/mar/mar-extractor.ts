import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { syncDirectory } from '../../sdk/files/atomic-write.js';
import { nodeErrorCode } from '../../sdk/files/error-facts.js';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from '../archive/archive-format.js';
import { loadManifestAs } from '../manifest/manifest-loader.js';
import { MANIFEST_FILE_NAME } from '../manifest/model-manifest.js';
import { convertMar, type MarConversion, type MarConversionOptions } from './mar-conversion.js';
import { unzipMar } from './mar-unzipper.js';

/** File name extension of TorchServe model archives. */
export const MAR_EXTENSION = '.mar';

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * Unzips and converts a `.mar` into a new directory inside `parent` (a temporary one, removed on any
 * failure), checks the `model.yaml` it wrote, and answers the directory and what was converted. The
 * caller renames it into place.
 */
async function convertInto(mar: string, parent: string, limits: ArchiveLimits, options: MarConversionOptions): Promise<{ dir: string; conversion: MarConversion }> {
  const workDir = await mkdtemp(join(parent, '.tmp-mar-'));
  try {
    const { files } = await unzipMar(mar, workDir, limits);
    const conversion = await convertMar(workDir, mar, files, options);
    await loadManifestAs(workDir, `${mar} (converted ${MANIFEST_FILE_NAME})`);
    return { dir: workDir, conversion };
  } catch (error) {
    await rm(workDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Converts a TorchServe `.mar` for the model store: into `<store>/.extracted/<name>-<version>-<sha256 of
 * the archive, 12 hex>[-<handler>]/`, with everything checked before the directory appears (see
 * {@link unzipMar} and {@link convertMar}); nothing is written outside `.extracted`. An archive already
 * converted (same digest, same handler) is not converted again: its directory is returned.
 */
export async function extractMarArchive(marFile: string, extractedRoot: string, limits: Partial<ArchiveLimits> = {}, options: MarConversionOptions = {}): Promise<string> {
  const mar = resolve(marFile);
  const { dir, conversion } = await convertInto(mar, extractedRoot, { ...DEFAULT_ARCHIVE_LIMITS, ...limits }, options);
  const suffix = options.handler !== undefined ? `-${options.handler}` : '';
  const finalDir = join(extractedRoot, `${conversion.name}-${conversion.version}-${(await sha256Of(mar)).slice(0, 12)}${suffix}`);
  try {
    await rename(dir, finalDir);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    const code = nodeErrorCode(error);
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
  }
  await syncDirectory(extractedRoot);
  return finalDir;
}

/**
 * `sluice import-mar`: converts a `.mar` into a model directory inside `parent`: `targetOf` names it once
 * the archive's model name is known (and may throw to refuse it, say when it exists). The conversion
 * happens in a temporary directory in `parent`, renamed into place at the end or removed on any failure.
 */
export async function importMarArchive(
  marFile: string,
  parent: string,
  targetOf: (conversion: MarConversion) => string,
  limits: Partial<ArchiveLimits> = {},
  options: MarConversionOptions = {},
): Promise<MarConversion & { readonly dir: string }> {
  const { dir, conversion } = await convertInto(resolve(marFile), resolve(parent), { ...DEFAULT_ARCHIVE_LIMITS, ...limits }, options);
  try {
    const target = targetOf(conversion);
    await rename(dir, target);
    return { ...conversion, dir: target };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

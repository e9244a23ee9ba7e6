import { lstat, mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SluiceError } from '../../sdk/errors/index.js';
import { syncDirectory } from '../../sdk/files/atomic-write.js';
import { nodeErrorCode } from '../../sdk/files/error-facts.js';
import { loadManifestAs } from '../manifest/manifest-loader.js';
import { MANIFEST_FILE_NAME } from '../manifest/model-manifest.js';
import { archiveError, REPACK_ADVICE } from './archive-errors.js';
import { ARCHIVE_MANIFEST_NAME, DEFAULT_ARCHIVE_LIMITS, type ArchiveKind, type ArchiveLimits, type ArchiveManifest } from './archive-format.js';
import { unpackArchive } from './archive-unpacker.js';
import { parseArchiveManifest, verifyArchiveFiles } from './archive-verifier.js';

/** Directory inside the model store that holds unpacked archives; hidden from store scans. */
export const EXTRACTED_DIR_NAME = '.extracted';

/** How the directories an archive is unpacked into, inside {@link EXTRACTED_DIR_NAME}, start until they are renamed into place. */
export const UNPACKING_DIR_PREFIX = '.tmp-';

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch (error) {
    if (nodeErrorCode(error) === 'ENOENT' || nodeErrorCode(error) === 'ENOTDIR') return false;
    throw error;
  }
}

/** Creates `<root>/.extracted` if needed and makes sure it is a real directory, not a link out of `root`. */
async function prepareExtractedRoot(rootDir: string, content: ArchiveContent): Promise<string> {
  if (!(await isDirectory(rootDir))) {
    const advice = `create it or point ${content.rootKey} at an existing directory`;
    throw new SluiceError('SLUICE_CONFIG_INVALID', `${rootDir}: ${content.rootLabel} is not a directory; ${advice}`, { source: rootDir });
  }
  const root = join(rootDir, EXTRACTED_DIR_NAME);
  try {
    await mkdir(root, { mode: 0o755 });
  } catch (error) {
    if (nodeErrorCode(error) !== 'EEXIST') throw error;
  }
  const info = await lstat(root);
  if (!info.isDirectory()) {
    const problem = 'is not a plain directory (a symbolic link or a file)';
    throw new SluiceError('SLUICE_CONFIG_INVALID', `${root}: ${problem}; remove it and Sluice recreates it`, { source: root });
  }
  return root;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isFile();
  } catch (error) {
    if (nodeErrorCode(error) === 'ENOENT' || nodeErrorCode(error) === 'ENOTDIR') return false;
    throw error;
  }
}

async function checkArchiveFile(archive: string): Promise<void> {
  let isFile: boolean;
  try {
    isFile = (await stat(archive)).isFile();
  } catch (error) {
    if (nodeErrorCode(error) !== 'ENOENT' && nodeErrorCode(error) !== 'ENOTDIR') throw error;
    isFile = false;
  }
  if (!isFile) throw archiveError('SLUICE_MANIFEST_NOT_FOUND', archive, 'no such archive file; check the path');
}

/** What an archive must hold to be unpacked for one use. */
export interface ArchiveContent {
  /** The kind it must be (`SLUICE-ARCHIVE.json`'s `kind`; absent means `model`). */
  readonly kind: ArchiveKind;
  /** Where it is unpacked: `<root>/.extracted/`. */
  readonly rootDir: string;
  /** How messages name `rootDir` ("the model store"), and the configuration key that sets it. */
  readonly rootLabel: string;
  readonly rootKey: string;
  /** Checks the unpacked, verified files in `workDir` before they are moved into place; throws to refuse. */
  readonly check: (workDir: string, manifest: ArchiveManifest, archive: string) => Promise<void>;
}

/**
 * `<store>/.extracted`, created when missing and checked to be a real directory: where converted TorchServe
 * archives are unpacked too.
 */
export function modelExtractedRoot(storeDir: string): Promise<string> {
  return prepareExtractedRoot(resolve(storeDir), { kind: 'model', rootDir: storeDir, rootLabel: 'the model store', rootKey: 'modelStore', check: () => Promise.resolve() });
}

/** Where each kind of archive is registered, for messages about an archive given to the wrong API. */
const REGISTER_AT: Record<ArchiveKind, string> = { model: 'POST /models', workflow: 'POST /workflows' };

/**
 * Unpacks a `.sluice` archive into `<store>/.extracted/<name>-<version>-<sha256 of the archive, 12
 * hex>/` and returns that directory. Everything is checked before the directory appears: entry
 * paths and types (regular files and directories only), the `limits` (defaults:
 * {@link DEFAULT_ARCHIVE_LIMITS}), every file's size and SHA-256 against `SLUICE-ARCHIVE.json`, and
 * the archive's `model.yaml`. See {@link extractArchive}.
 */
export async function extractModelArchive(
  archiveFile: string,
  storeDir: string,
  limits: Partial<ArchiveLimits> = {},
): Promise<string> {
  return extractArchive(
    archiveFile,
    {
      kind: 'model',
      rootDir: storeDir,
      rootLabel: 'the model store',
      rootKey: 'modelStore',
      check: async (workDir, archiveManifest, archive) => {
        if (!(await isFile(join(workDir, MANIFEST_FILE_NAME)))) {
          throw archiveError('SLUICE_ARCHIVE_INVALID', archive, `has no ${MANIFEST_FILE_NAME} at its root; ${REPACK_ADVICE}`);
        }
        const manifest = await loadManifestAs(workDir, `${archive} (${MANIFEST_FILE_NAME})`);
        if (manifest.name !== archiveManifest.name || manifest.version !== archiveManifest.version) {
          const claimed = `${archiveManifest.name} ${archiveManifest.version}`;
          const problem = `${ARCHIVE_MANIFEST_NAME} names ${claimed} but ${MANIFEST_FILE_NAME} names ${manifest.name} ${manifest.version}`;
          throw archiveError('SLUICE_ARCHIVE_INVALID', archive, `${problem}; ${REPACK_ADVICE}`);
        }
      },
    },
    limits,
  );
}

/**
 * Unpacks a `.sluice` archive holding `content.kind` into `<root>/.extracted/<name>-<version>-<sha256 of
 * the archive, 12 hex>/` and returns that directory. Entry paths and types, the `limits`, every file's size
 * and SHA-256 and then `content.check` are all passed before the directory appears. Work happens in a
 * temporary directory inside `<root>/.extracted/` that is renamed into place at the end or removed on any
 * failure, so nothing is left behind and nothing is written outside the root. An archive that was already
 * unpacked is not unpacked twice over: the existing directory (same content, same digest) is returned.
 */
export async function extractArchive(archiveFile: string, content: ArchiveContent, limits: Partial<ArchiveLimits> = {}): Promise<string> {
  const archive = resolve(archiveFile);
  const fullLimits: ArchiveLimits = { ...DEFAULT_ARCHIVE_LIMITS, ...limits };
  await checkArchiveFile(archive);
  const extractedRoot = await prepareExtractedRoot(resolve(content.rootDir), content);
  const workDir = await mkdtemp(join(extractedRoot, UNPACKING_DIR_PREFIX));
  try {
    const unpacked = await unpackArchive(archive, workDir, fullLimits);
    const manifestBytes = unpacked.archiveManifest;
    if (manifestBytes === undefined) {
      throw archiveError('SLUICE_ARCHIVE_INVALID', archive, `has no ${ARCHIVE_MANIFEST_NAME}, so it was not made by Sluice; ${REPACK_ADVICE}`);
    }
    const archiveManifest = parseArchiveManifest(archive, manifestBytes);
    const kind = archiveManifest.kind ?? 'model';
    if (kind !== content.kind) {
      const problem = `holds a ${kind}, not a ${content.kind}; register it with ${REGISTER_AT[kind]}`;
      throw archiveError('SLUICE_ARCHIVE_INVALID', archive, problem, { kind });
    }
    verifyArchiveFiles(archive, archiveManifest, unpacked.files);
    await content.check(workDir, archiveManifest, archive);
    // Written only now, after it was checked, so that the unpacked directory records its origin.
    await writeFile(join(workDir, ARCHIVE_MANIFEST_NAME), manifestBytes, { flag: 'wx', mode: 0o644 });
    const finalDir = join(extractedRoot, `${archiveManifest.name}-${archiveManifest.version}-${unpacked.archiveSha256.slice(0, 12)}`);
    try {
      await rename(workDir, finalDir);
    } catch (error) {
      const code = nodeErrorCode(error);
      if (code === 'ENOTDIR') {
        const problem = 'is not a directory, and this archive is unpacked there (a file or a symbolic link stands in its place)';
        throw new SluiceError('SLUICE_CONFIG_INVALID', `${finalDir}: ${problem}; remove it and register the archive again`, { source: finalDir }, { cause: error });
      }
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
      // Same archive digest, same content: the earlier extraction is kept.
      await rm(workDir, { recursive: true, force: true });
    }
    await syncDirectory(extractedRoot);
    return finalDir;
  } catch (error) {
    await rm(workDir, { recursive: true, force: true });
    throw error;
  }
}

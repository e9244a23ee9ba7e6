import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack as tarPack } from 'tar-stream';
import { SluiceError } from '../../sdk/errors/index.js';
import { syncDirectory, syncFile, temporarySibling } from '../../sdk/files/atomic-write.js';
import { isPathInside, relativePathProblem, RELATIVE_PATH_PROBLEM_TEXT } from '../fs/path-containment.js';
import { loadManifest } from '../manifest/manifest-loader.js';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_MANIFEST_NAME,
  DEFAULT_ARCHIVE_LIMITS,
  type ArchiveFileRecord,
  type ArchiveIdentity,
  type ArchiveManifest,
} from './archive-format.js';

/** What {@link packArchive} wrote. */
export interface PackResult {
  readonly name: string;
  readonly version: string;
  /** Every packed file except `SLUICE-ARCHIVE.json`, in archive order. */
  readonly files: readonly ArchiveFileRecord[];
  /** Size of the written archive file. */
  readonly bytes: number;
}

/** A file to pack: where its bytes are read from and the path it gets in the archive. */
interface PackSource {
  readonly archivePath: string;
  readonly sourcePath: string;
}

async function collectFiles(realBase: string, dir: string, prefix: string, found: PackSource[]): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const archivePath = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    // A previous archive manifest (say, in an unpacked archive) is regenerated, never copied.
    if (archivePath === ARCHIVE_MANIFEST_NAME) continue;
    const problem = relativePathProblem(archivePath);
    if (problem !== undefined) {
      throw new SluiceError('SLUICE_ARCHIVE_UNSAFE_PATH', `${join(dir, entry.name)}: cannot be packed, its name ${RELATIVE_PATH_PROBLEM_TEXT[problem]}; rename it`, {
        path: archivePath,
      });
    }
    const path = join(dir, entry.name);
    const info = await lstat(path);
    if (info.isDirectory()) {
      await collectFiles(realBase, path, archivePath, found);
    } else if (info.isFile()) {
      found.push({ archivePath, sourcePath: path });
    } else if (info.isSymbolicLink()) {
      const target = await realpath(path);
      if (!isPathInside(realBase, target)) {
        throw new SluiceError(
          'SLUICE_ARCHIVE_UNSAFE_PATH',
          `${path}: is a symbolic link to ${target}, outside the directory being packed; replace the link with a copy of the file or remove it`,
          { path: archivePath, target },
        );
      }
      // Links inside the directory are stored as regular files; linked directories are already
      // packed through their real location.
      if ((await stat(target)).isFile()) found.push({ archivePath, sourcePath: target });
    } else {
      throw new SluiceError('SLUICE_ARCHIVE_INVALID', `${path}: is not a regular file, directory or link; remove it from the directory being packed`, {
        path: archivePath,
      });
    }
  }
}

async function hashFile(path: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: hash.digest('hex') };
}

function checkLimits(baseDir: string, records: readonly ArchiveFileRecord[]): void {
  const limits = DEFAULT_ARCHIVE_LIMITS;
  if (records.length + 1 > limits.maxEntries) {
    throw new SluiceError(
      'SLUICE_ARCHIVE_INVALID',
      `${baseDir}: holds ${records.length} files, but archives may have at most ${limits.maxEntries - 1}; remove files it does not need`,
    );
  }
  let total = 0;
  for (const record of records) {
    total += record.size;
    if (record.size > limits.maxEntryBytes) {
      throw new SluiceError(
        'SLUICE_ARCHIVE_ENTRY_TOO_LARGE',
        `${join(baseDir, record.path)}: is ${record.size} bytes, but archive files may have at most ${limits.maxEntryBytes}; serve the directory without packing it`,
      );
    }
  }
  if (total > limits.maxTotalBytes) {
    throw new SluiceError(
      'SLUICE_ARCHIVE_ENTRY_TOO_LARGE',
      `${baseDir}: holds ${total} bytes of files, but archives may hold at most ${limits.maxTotalBytes}; serve the directory without packing it`,
    );
  }
}

async function writeArchive(tempFile: string, manifest: ArchiveManifest, sources: readonly PackSource[]): Promise<void> {
  const tar = tarPack();
  const written = pipeline(tar, createGzip(), createWriteStream(tempFile, { flags: 'wx' }));
  written.catch(() => undefined);
  const mtime = new Date(manifest.createdAt);
  const header = { mode: 0o644, uid: 0, gid: 0, uname: '', gname: '', mtime, type: 'file' as const };
  try {
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2) + '\n', 'utf8');
    tar.entry({ ...header, name: ARCHIVE_MANIFEST_NAME, size: manifestBytes.length }, manifestBytes);
    for (const [index, source] of sources.entries()) {
      const record = manifest.files[index];
      if (record === undefined) throw new Error('archive manifest and file list differ');
      // A file that changes size while it is packed fails with the tar stream's size check.
      await pipeline(createReadStream(source.sourcePath), tar.entry({ ...header, name: source.archivePath, size: record.size }));
    }
    tar.finalize();
  } catch (error) {
    tar.destroy();
    await written.catch(() => undefined);
    throw error;
  }
  await written;
}

/**
 * Packs a model directory into a `.sluice` archive: a gzip'd tar of the directory's files at the
 * archive root plus `SLUICE-ARCHIVE.json` (name, version, size and SHA-256 of every file). The
 * manifest is validated first, so a broken model cannot be packed. See {@link packArchive}.
 */
export async function packModelArchive(modelDir: string, outFile: string): Promise<PackResult> {
  const manifest = await loadManifest(modelDir);
  return packArchive(manifest.baseDir, outFile, { name: manifest.name, version: manifest.version, kind: 'model' });
}

/**
 * Packs `dir` into a `.sluice` archive under `identity` (its content is the caller's to check first).
 * Only regular files are stored, sorted by path; symbolic links to files inside the directory are
 * stored as the files they point at, links leading outside are refused. Written to a temporary file
 * and renamed, so `outFile` is either the complete archive or untouched.
 */
export async function packArchive(dir: string, outFile: string, identity: ArchiveIdentity): Promise<PackResult> {
  const realBase = await realpath(dir);
  const target = resolve(outFile);
  await mkdir(dirname(target), { recursive: true });
  if (isPathInside(realBase, join(await realpath(dirname(target)), basename(target)))) {
    throw new SluiceError('SLUICE_ARCHIVE_INVALID', `${target}: lies inside the directory being packed, ${dir}; write the archive somewhere else`, {
      path: target,
    });
  }

  const sources: PackSource[] = [];
  await collectFiles(realBase, dir, '', sources);
  sources.sort((a, b) => (a.archivePath < b.archivePath ? -1 : a.archivePath > b.archivePath ? 1 : 0));
  const files: ArchiveFileRecord[] = [];
  for (const source of sources) files.push({ path: source.archivePath, ...(await hashFile(source.sourcePath)) });
  checkLimits(dir, files);

  const archiveManifest: ArchiveManifest = {
    format: ARCHIVE_FORMAT,
    // Model archives stay as they were before workflows had archives, so older readers still take them.
    ...(identity.kind === 'model' ? {} : { kind: identity.kind }),
    name: identity.name,
    version: identity.version,
    createdAt: new Date().toISOString(),
    files,
  };
  const tempFile = temporarySibling(target);
  try {
    await writeArchive(tempFile, archiveManifest, sources);
    await syncFile(tempFile);
    await rename(tempFile, target);
  } catch (error) {
    await rm(tempFile, { force: true });
    throw error;
  }
  await syncDirectory(dirname(target));
  return { name: identity.name, version: identity.version, files, bytes: (await stat(target)).size };
}

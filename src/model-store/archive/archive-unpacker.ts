import { createHash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract as tarExtract, type ExtractEvents } from 'tar-stream';
import { isSluiceError, type SluiceError } from '../../sdk/errors/index.js';
import { errorMessage, nodeErrorCode } from '../../sdk/files/error-facts.js';
import { RELATIVE_PATH_PROBLEM_TEXT } from '../fs/path-containment.js';
import { normalizeArchivePath } from './archive-entry-path.js';
import { archiveError, REPACK_ADVICE } from './archive-errors.js';
import { ARCHIVE_MANIFEST_NAME, type ArchiveLimits } from './archive-format.js';

/** One tar entry: its header and a stream of its bytes. */
type Entry = ExtractEvents['entry'][1];

/** A tar header as it may arrive: the typings promise a known type and a link name, but archives from anywhere need not. */
interface UntrustedHeader {
  readonly name: string;
  readonly type: string | null;
  readonly linkname: string | null;
  readonly size: number;
}

/** Size and digest of one unpacked file. */
export interface UnpackedFile {
  readonly size: number;
  readonly sha256: string;
}

/** What {@link unpackArchive} found, for the verifier. */
export interface UnpackResult {
  /** Every regular file written, by normalised path, in archive order. */
  readonly files: ReadonlyMap<string, UnpackedFile>;
  /** The bytes of `SLUICE-ARCHIVE.json`, kept in memory instead of on disk; undefined when absent. */
  readonly archiveManifest: Buffer | undefined;
  /** SHA-256 of the archive file as stored (compressed), lowercase hex. */
  readonly archiveSha256: string;
}

/** No sensible `SLUICE-ARCHIVE.json` is larger (10 000 entries take about 2 MiB). */
const MAX_ARCHIVE_MANIFEST_BYTES = 16 * 1024 * 1024;

/** Tar headers and padding allowed per entry on top of the file bytes, for the inflation cap. */
const TAR_OVERHEAD_PER_ENTRY = 4096;

// O_NOFOLLOW does not exist on Windows; there O_EXCL alone refuses existing names.
const NO_FOLLOW = (constants.O_NOFOLLOW as number | undefined) ?? 0;
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;

const LINK_TYPES: Readonly<Record<string, string>> = { link: 'a hard link', symlink: 'a symbolic link' };
const SPECIAL_TYPES: Readonly<Record<string, string>> = {
  'character-device': 'a character device',
  'block-device': 'a block device',
  fifo: 'a FIFO',
};

type UnpackErrorCode = 'SLUICE_ARCHIVE_INVALID' | 'SLUICE_ARCHIVE_UNSAFE_PATH' | 'SLUICE_ARCHIVE_ENTRY_TOO_LARGE';

const quote = (name: string): string => JSON.stringify(name);

/** Checks and writes the entries of one archive, one at a time, in archive order. */
class Unpacker {
  private entries = 0;
  private declaredBytes = 0;
  private readonly files = new Map<string, UnpackedFile>();
  private archiveManifest: Buffer | undefined;

  constructor(
    private readonly archive: string,
    private readonly workDir: string,
    private readonly limits: ArchiveLimits,
  ) {}

  result(archiveSha256: string): UnpackResult {
    return { files: this.files, archiveManifest: this.archiveManifest, archiveSha256 };
  }

  private fail(code: UnpackErrorCode, problem: string, entry?: string): SluiceError {
    return archiveError(code, this.archive, problem, entry === undefined ? {} : { entry });
  }

  async accept(entry: Entry): Promise<void> {
    const header: UntrustedHeader = entry.header;
    const name = header.name;
    this.entries += 1;
    if (this.entries > this.limits.maxEntries) {
      const problem = `has more than ${this.limits.maxEntries} entries, the most an archive may have`;
      // One of the archive limits, as the size limits are: the same code, and the same advice to raise it.
      throw this.fail('SLUICE_ARCHIVE_ENTRY_TOO_LARGE', `${problem}; remove files the model does not need, or raise archive.maxEntries if it really needs them`);
    }
    const named = normalizeArchivePath(name);
    if (!named.ok) {
      const problem = RELATIVE_PATH_PROBLEM_TEXT[named.problem];
      throw this.fail('SLUICE_ARCHIVE_UNSAFE_PATH', `entry ${quote(name)} ${problem}; archives may only hold paths inside the archive`, name);
    }
    const type = header.type ?? 'unknown';
    const kind = LINK_TYPES[type] ?? SPECIAL_TYPES[type];
    if (kind !== undefined) {
      const code = type in LINK_TYPES ? 'SLUICE_ARCHIVE_UNSAFE_PATH' : 'SLUICE_ARCHIVE_INVALID';
      const target = type in LINK_TYPES ? ` (to ${quote(header.linkname ?? '')})` : '';
      throw this.fail(code, `entry ${quote(name)} is ${kind}${target}; archives must contain regular files only`, name);
    }
    this.checkManifestPathFree(named.path, type, name);
    if (type === 'directory') {
      entry.resume();
      if (named.path !== '') await this.makeDirectory(join(this.workDir, named.path), name);
      return;
    }
    if (type !== 'file' && type !== 'contiguous-file') {
      throw this.fail('SLUICE_ARCHIVE_INVALID', `entry ${quote(name)} has the unsupported type ${type}; archives must contain regular files only`, name);
    }
    await this.acceptFile(entry, named.path, header.size);
  }

  /**
   * `SLUICE-ARCHIVE.json` is kept in memory and written into place only after the checks, so nothing else
   * may take its path on disk first (a directory of that name, or a file below one).
   */
  private checkManifestPathFree(path: string, type: string, name: string): void {
    const atManifestPath = path === ARCHIVE_MANIFEST_NAME || path.startsWith(`${ARCHIVE_MANIFEST_NAME}/`);
    const isManifestFile = path === ARCHIVE_MANIFEST_NAME && (type === 'file' || type === 'contiguous-file');
    if (!atManifestPath || isManifestFile) return;
    const problem = `entry ${quote(name)} takes the place of ${ARCHIVE_MANIFEST_NAME}, which must be a file at the archive root`;
    throw this.fail('SLUICE_ARCHIVE_INVALID', `${problem}; ${REPACK_ADVICE}`, name);
  }

  private async acceptFile(entry: Entry, path: string, size: number): Promise<void> {
    if (path === '') throw this.fail('SLUICE_ARCHIVE_INVALID', `holds a file entry without a name; ${REPACK_ADVICE}`);
    if (this.files.has(path) || (path === ARCHIVE_MANIFEST_NAME && this.archiveManifest !== undefined)) {
      throw this.fail('SLUICE_ARCHIVE_INVALID', `holds ${quote(path)} twice; ${REPACK_ADVICE}`, path);
    }
    this.checkDeclaredSize(path, size);
    if (path === ARCHIVE_MANIFEST_NAME) this.archiveManifest = await this.readManifest(entry, size);
    else this.files.set(path, await this.writeFile(entry, path, size));
  }

  private checkDeclaredSize(path: string, size: number): void {
    const { maxEntryBytes, maxTotalBytes } = this.limits;
    if (size > maxEntryBytes) {
      const problem = `entry ${quote(path)} declares ${size} bytes, more than the limit of ${maxEntryBytes} bytes per file`;
      throw this.fail('SLUICE_ARCHIVE_ENTRY_TOO_LARGE', `${problem}; raise archive.maxEntryBytes if the model really needs it`, path);
    }
    this.declaredBytes += size;
    if (this.declaredBytes > maxTotalBytes) {
      const problem = `files add up to more than the limit of ${maxTotalBytes} bytes`;
      throw this.fail('SLUICE_ARCHIVE_ENTRY_TOO_LARGE', `${problem}; raise archive.maxTotalBytes if the model really needs it`, path);
    }
  }

  // tar-stream never delivers more than the header declares; this guards the limit all the same.
  private streamedTooLarge(path: string, declared: number): SluiceError {
    const problem = `entry ${quote(path)} holds more bytes than the ${declared} its header declares`;
    return this.fail('SLUICE_ARCHIVE_ENTRY_TOO_LARGE', `${problem}; ${REPACK_ADVICE}`, path);
  }

  private async readManifest(entry: Entry, size: number): Promise<Buffer> {
    if (size > MAX_ARCHIVE_MANIFEST_BYTES) {
      const problem = `${ARCHIVE_MANIFEST_NAME} is ${size} bytes, more than the ${MAX_ARCHIVE_MANIFEST_BYTES} it may have`;
      throw this.fail('SLUICE_ARCHIVE_INVALID', `${problem}; ${REPACK_ADVICE}`);
    }
    const chunks: Buffer[] = [];
    let read = 0;
    for await (const data of entry) {
      const chunk = data as Buffer;
      read += chunk.length;
      if (read > size) throw this.streamedTooLarge(ARCHIVE_MANIFEST_NAME, size);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }

  private async makeDirectory(path: string, name: string): Promise<void> {
    try {
      await mkdir(path, { recursive: true });
    } catch (error) {
      const code = nodeErrorCode(error);
      if (code !== 'EEXIST' && code !== 'ENOTDIR') throw error;
      throw this.fail('SLUICE_ARCHIVE_INVALID', `entry ${quote(name)} clashes with a file of the same name; ${REPACK_ADVICE}`, name);
    }
  }

  private async writeFile(entry: Entry, path: string, declared: number): Promise<UnpackedFile> {
    const target = join(this.workDir, ...path.split('/'));
    await this.makeDirectory(dirname(target), path);
    let handle;
    try {
      handle = await open(target, CREATE_FLAGS, 0o644);
    } catch (error) {
      const code = nodeErrorCode(error);
      if (code !== 'EEXIST' && code !== 'ELOOP' && code !== 'EISDIR') throw error;
      throw this.fail('SLUICE_ARCHIVE_INVALID', `entry ${quote(path)} clashes with another entry of the same name; ${REPACK_ADVICE}`, path);
    }
    const hash = createHash('sha256');
    let written = 0;
    try {
      for await (const data of entry) {
        const chunk = data as Buffer;
        written += chunk.length;
        if (written > declared || written > this.limits.maxEntryBytes) throw this.streamedTooLarge(path, declared);
        hash.update(chunk);
        await handle.write(chunk);
      }
    } finally {
      await handle.close();
    }
    return { size: written, sha256: hash.digest('hex') };
  }
}

function passThrough(onChunk: (chunk: Buffer) => SluiceError | undefined): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      const error = onChunk(chunk);
      if (error) callback(error);
      else callback(null, chunk);
    },
  });
}

const AGAIN = 'copy or download the archive again';

/** Turns what the read, gunzip and tar stages throw into a sentence about the archive. */
function streamError(archive: string, error: unknown): SluiceError {
  if (isSluiceError(error)) return error;
  const code = nodeErrorCode(error);
  const message = errorMessage(error);
  const invalid = (problem: string): SluiceError => archiveError('SLUICE_ARCHIVE_INVALID', archive, problem);
  if (code === 'Z_DATA_ERROR' && /header check/i.test(message)) {
    return invalid("is not gzip-compressed; a .sluice archive is a gzip-compressed tar file made by Sluice's archive packer");
  }
  if (code === 'Z_BUF_ERROR') return invalid(`is truncated (the compressed data ends early); ${AGAIN}`);
  if (code?.startsWith('Z_') === true) return invalid(`has corrupt compressed data; ${AGAIN}`);
  if (message.startsWith('Unexpected end of data')) return invalid(`is truncated (the tar data ends early); ${AGAIN}`);
  if (message.startsWith('Invalid tar header')) return invalid(`does not hold tar data inside its gzip compression; ${REPACK_ADVICE}`);
  if (code === undefined) return invalid(`is not a valid tar archive (${message}); ${REPACK_ADVICE}`);
  return invalid(`cannot be unpacked (${code}: ${message}); check the store's disk space and permissions`);
}

/**
 * Streams a gzip'd tar archive into the empty directory `workDir`, refusing anything unsafe
 * before it touches the disk: paths leaving the directory, links, devices, oversized or too many
 * entries. Regular files are created with `O_EXCL | O_NOFOLLOW` and hashed as they are written.
 * Throws a `SluiceError` naming the archive; the caller removes `workDir` on failure.
 */
export async function unpackArchive(archive: string, workDir: string, limits: ArchiveLimits): Promise<UnpackResult> {
  const archiveHash = createHash('sha256');
  const inflateCap = limits.maxTotalBytes + (limits.maxEntries + 2) * TAR_OVERHEAD_PER_ENTRY;
  let inflated = 0;
  const unpacker = new Unpacker(archive, workDir, limits);
  const extractor = tarExtract();
  const piping = pipeline(
    createReadStream(archive),
    passThrough((chunk) => {
      archiveHash.update(chunk);
      return undefined;
    }),
    createGunzip(),
    // Caps decompression itself, so that padding or junk between entries cannot inflate forever.
    passThrough((chunk) => {
      inflated += chunk.length;
      if (inflated <= inflateCap) return undefined;
      const problem = `unpacks to more than ${inflateCap} bytes, more than its size limits allow`;
      return archiveError('SLUICE_ARCHIVE_ENTRY_TOO_LARGE', archive, `${problem}; raise archive.maxTotalBytes if the model really needs it`);
    }),
    extractor,
  );
  piping.catch(() => undefined);
  try {
    for await (const entry of extractor) await unpacker.accept(entry);
    await piping;
  } catch (error) {
    const stopped = new Error('unpacking stopped');
    extractor.destroy(stopped);
    const stageError = await piping.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    // A stage that failed first (the archive ends early, or is corrupt) destroyed the entry being read,
    // whose own error (its stream destroyed) would then hide what is wrong with the archive.
    const firstFailure = isSluiceError(error) || stageError === undefined || stageError === stopped ? error : stageError;
    throw streamError(archive, firstFailure);
  }
  return unpacker.result(archiveHash.digest('hex'));
}

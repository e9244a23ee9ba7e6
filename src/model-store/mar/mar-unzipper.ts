import { constants } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { isSluiceError, type SluiceError } from '../../sdk/errors/index.js';
import { archiveError } from '../archive/archive-errors.js';
import { normalizeArchivePath } from '../archive/archive-entry-path.js';
import type { ArchiveLimits } from '../archive/archive-format.js';
import { RELATIVE_PATH_PROBLEM_TEXT } from '../fs/path-containment.js';

// O_NOFOLLOW does not exist on Windows; there O_EXCL alone refuses existing names.
const NO_FOLLOW = (constants.O_NOFOLLOW as number | undefined) ?? 0;
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;

/** The file-type bits of a Unix mode, as zip tools keep it in the high half of the external attributes. */
const S_IFMT = 0o170000;
const FILE_TYPES: Readonly<Record<number, string | undefined>> = {
  0o120000: 'a symbolic link',
  0o020000: 'a character device',
  0o060000: 'a block device',
  0o010000: 'a FIFO',
  0o140000: 'a socket',
};

const ADVICE = 'a .mar must hold regular files with relative paths only; make it again with torch-model-archiver';

function openZip(file: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    // Names are checked here (below), so that a bad one gets Sluice's message rather than yauzl's.
    yauzl.open(file, { lazyEntries: true, autoClose: true, decodeStrings: false, validateEntrySizes: true }, (error, zip) => {
      if (error) reject(error);
      else resolve(zip);
    });
  });
}

function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) reject(error);
      else resolve(stream);
    });
  });
}

/** What {@link unzipMar} wrote: every regular file, by normalised path, and the bytes written in all. */
export interface UnzippedMar {
  readonly files: ReadonlySet<string>;
  readonly bytes: number;
}

/**
 * Unzips a TorchServe `.mar` into the empty directory `workDir`, one entry at a time, refusing before
 * writing anything of an entry: names that are absolute or hold `..`, a backslash or a NUL
 * (`SLUICE_ARCHIVE_UNSAFE_PATH`), links, devices, FIFOs and sockets (their Unix mode in the entry), more
 * entries than `limits.maxEntries`, an entry or a total above `limits.maxEntryBytes` /
 * `limits.maxTotalBytes` by its declared size or by what it inflates to (`SLUICE_ARCHIVE_ENTRY_TOO_LARGE`).
 * A file that is no zip, or a damaged one, is `SLUICE_ARCHIVE_INVALID`. Files are created with
 * `O_EXCL | O_NOFOLLOW`, so an entry can neither replace an earlier one nor write through a link.
 */
export async function unzipMar(mar: string, workDir: string, limits: ArchiveLimits): Promise<UnzippedMar> {
  let zip: ZipFile;
  try {
    zip = await openZip(mar);
  } catch (error) {
    throw archiveError('SLUICE_ARCHIVE_INVALID', mar, `is not a zip file, so not a TorchServe model archive (${error instanceof Error ? error.message : String(error)}); ${ADVICE}`);
  }
  const files = new Set<string>();
  let entries = 0;
  let total = 0;
  const tooLarge = (what: string): SluiceError => archiveError('SLUICE_ARCHIVE_ENTRY_TOO_LARGE', mar, `${what}; raise archive.maxEntryBytes / maxTotalBytes / maxEntries if the model really is that large`);
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (error: unknown): void => {
        zip.close();
        reject(error instanceof Error ? error : new Error(String(error)));
      };
      zip.on('error', fail);
      zip.on('end', () => {
        resolve();
      });
      zip.on('entry', (entry: Entry) => {
        writeEntry(entry).then(
          () => {
            zip.readEntry();
          },
          fail,
        );
      });
      const writeEntry = async (entry: Entry): Promise<void> => {
        entries += 1;
        if (entries > limits.maxEntries) throw tooLarge(`holds more than ${limits.maxEntries} entries`);
        // Undecoded, so that yauzl leaves the name's checks to this function: names are UTF-8 in the archives torch-model-archiver writes.
        const raw = entry.fileName as unknown;
        const name = Buffer.isBuffer(raw) ? raw.toString('utf8') : String(raw);
        const normalised = normalizeArchivePath(name);
        if (!normalised.ok) {
          throw archiveError('SLUICE_ARCHIVE_UNSAFE_PATH', mar, `entry ${JSON.stringify(name)} ${RELATIVE_PATH_PROBLEM_TEXT[normalised.problem]}; nothing was extracted; ${ADVICE}`, { entry: name });
        }
        const type = FILE_TYPES[((entry.externalFileAttributes >>> 16) & S_IFMT)];
        if (type !== undefined) throw archiveError('SLUICE_ARCHIVE_UNSAFE_PATH', mar, `entry ${JSON.stringify(name)} is ${type}; ${ADVICE}`, { entry: name });
        if (name.endsWith('/')) {
          if (normalised.path !== '') await mkdir(join(workDir, normalised.path), { recursive: true });
          return;
        }
        if (normalised.path === '' || files.has(normalised.path)) {
          throw archiveError('SLUICE_ARCHIVE_INVALID', mar, `entry ${JSON.stringify(name)} is empty or comes twice; ${ADVICE}`, { entry: name });
        }
        if (entry.uncompressedSize > limits.maxEntryBytes) throw tooLarge(`entry ${JSON.stringify(name)} is ${entry.uncompressedSize} bytes, above archive.maxEntryBytes (${limits.maxEntryBytes})`);
        total += entry.uncompressedSize;
        if (total > limits.maxTotalBytes) throw tooLarge(`its files add up to more than archive.maxTotalBytes (${limits.maxTotalBytes}) bytes`);
        const target = join(workDir, normalised.path);
        await mkdir(dirname(target), { recursive: true });
        const handle = await open(target, CREATE_FLAGS, 0o644);
        const limit = Math.min(limits.maxEntryBytes, entry.uncompressedSize);
        let written = 0;
        try {
          for await (const data of await openEntry(zip, entry)) {
            const chunk = data as Buffer;
            written += chunk.length;
            // yauzl checks sizes too; this bound holds whatever the entry declares.
            if (written > limit) throw tooLarge(`entry ${JSON.stringify(name)} inflates beyond the ${limit} bytes it declares`);
            await handle.write(chunk);
          }
        } finally {
          await handle.close();
        }
        files.add(normalised.path);
      };
      zip.readEntry();
    });
  } catch (error) {
    if (isSluiceError(error)) throw error;
    throw archiveError('SLUICE_ARCHIVE_INVALID', mar, `is damaged (${error instanceof Error ? error.message : String(error)}); ${ADVICE}`);
  }
  return { files, bytes: total };
}

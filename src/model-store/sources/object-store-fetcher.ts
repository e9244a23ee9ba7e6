import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isSluiceError, SluiceError } from '../../sdk/errors/index.js';
import type { Logger } from '../../sdk/logging/logger.js';
import { extractModelArchive } from '../archive/archive-extractor.js';
import type { ArchiveLimits } from '../archive/archive-format.js';
import { syncDirectory, writeFileAtomic } from '../../sdk/files/atomic-write.js';
import { errorMessage, nodeErrorCode } from '../../sdk/files/error-facts.js';
import { isPathInside } from '../fs/path-containment.js';
import { MANIFEST_FILE_NAME } from '../manifest/model-manifest.js';
import { MODEL_FILE_NAME } from '../manifest/model-directory.js';
import { ARCHIVE_EXTENSION } from '../store/store-entry.js';
import { DOWNLOADS_DIR_NAME } from '../store/stale-temporaries.js';
import { DownloadProgress } from './download-progress.js';
import { BodyRefused, downloadRefused, writeObject } from './object-download.js';
import type { ObjectStore, StoredObject } from './object-store.js';
import type { ObjectStoreLocation } from './object-store-url.js';
import { SOURCE_WORK_DIR_PREFIX, SOURCES_DIR_NAME } from './source-dirs.js';


/** Attempts at one object whose body is cut short (the SDK retries the calls themselves). */
const BODY_ATTEMPTS = 3;
const BODY_RETRY_DELAY_MS = 250;

/** Limits, store and logging of one fetch. */
export interface ObjectStoreFetchOptions {
  /** The model store: sources are kept in its `.sources/`, archives unpacked into its `.extracted/`. */
  readonly storeDir: string;
  /** Largest source accepted, all its objects together. */
  readonly maxBytes: number;
  /** Deadline for the whole fetch. */
  readonly timeoutMs: number;
  readonly archiveLimits?: Partial<ArchiveLimits>;
  readonly logger?: Logger;
  readonly progressIntervalMs?: number;
}

/** A fetched source: the local directory that holds the model. */
export interface FetchedSource {
  readonly dir: string;
  readonly kind: 'directory' | 'archive';
  /** True when nothing was downloaded: the same source at the same version was fetched before. */
  readonly cached: boolean;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if (nodeErrorCode(error) === 'ENOENT' || nodeErrorCode(error) === 'ENOTDIR') return false;
    throw error;
  }
}

/** Why a key below the prefix cannot be a file path in the downloaded directory, or undefined. */
function relativeKeyProblem(rel: string): string | undefined {
  const segments = rel.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return "has an empty, '.' or '..' path segment";
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(rel)) return 'holds a backslash or a control character';
  if (segments.some((s) => Buffer.byteLength(s) > 255)) return 'has a path segment longer than 255 bytes';
  if (segments[0]?.startsWith('.') === true) return "starts with '.', which Sluice keeps for its own files";
  return undefined;
}

function diskAdvice(error: unknown): string {
  const code = nodeErrorCode(error);
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'the disk holding the model store is full; free space or give the model store a larger disk';
  return errorMessage(error);
}

/**
 * Downloads a model from an object store into the model store and returns the local directory, or finds
 * it there already:
 *
 * - a URL whose key ends in `.sluice` is a Sluice archive: downloaded, then unpacked (and checked) as any;
 * - any other URL is a prefix holding a model directory (`model.yaml`, or only `model.onnx`, with any
 *   other files, external weight data included): every object under it is downloaded, keeping the layout.
 *
 * Objects stream to disk; nothing is held in memory. The source's total size is checked against
 * `maxBytes` before anything is downloaded and again as bytes arrive; each object's size and, when the store
 * gives one, MD5 are checked once written. Everything goes to a temporary directory that is renamed into
 * place only when complete, so a failure (a cut connection, a full disk, a timeout) leaves nothing behind.
 * Sources are kept by URL and the objects' entity tags: the same source at the same version (another
 * registration, a restart, a snapshot restore) is not downloaded again; a changed object is.
 */
export async function fetchObjectStoreModel(location: ObjectStoreLocation, store: ObjectStore, options: ObjectStoreFetchOptions): Promise<FetchedSource> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const sourcesDir = join(resolve(options.storeDir), SOURCES_DIR_NAME);
  if (location.prefix.endsWith(ARCHIVE_EXTENSION)) return fetchArchive(location, store, options, sourcesDir, signal);

  const prefixDir = location.prefix === '' || location.prefix.endsWith('/') ? location.prefix : `${location.prefix}/`;
  const maxEntries = options.archiveLimits?.maxEntries ?? 10_000;
  const listed = (await store.list(prefixDir, maxEntries, signal)).filter((o) => !(o.key.endsWith('/') && o.size === 0));
  if (listed.length === 0) {
    const single = location.prefix === '' ? undefined : await store.head(location.prefix, signal);
    if (single !== undefined) {
      throw new SluiceError(
        'SLUICE_MANIFEST_NOT_FOUND',
        `${location.url} is a single object, not a prefix holding a model directory nor a ${ARCHIVE_EXTENSION} archive; point the URL at the prefix that holds ${MODEL_FILE_NAME} or ${MANIFEST_FILE_NAME}, or at a ${ARCHIVE_EXTENSION} archive`,
        { url: location.url },
      );
    }
    throw new SluiceError(
      'SLUICE_SOURCE_NOT_FOUND',
      `${store.label} holds nothing under ${JSON.stringify(prefixDir)} (${location.url}); check the prefix, and upload the model directory there first`,
      { url: location.url, source: store.label },
    );
  }
  if (listed.length > maxEntries) {
    throw new SluiceError('SLUICE_MANAGEMENT_DOWNLOAD_FAILED', `${location.url} holds more than ${maxEntries} objects, more than a model directory may have; point the URL at the model's own prefix`, {
      url: location.url,
    });
  }
  const files = listed.map((object) => ({ object, rel: object.key.slice(prefixDir.length) }));
  for (const { rel, object } of files) {
    const problem = relativeKeyProblem(rel);
    if (problem !== undefined) {
      throw new SluiceError('SLUICE_MANIFEST_INVALID', `${location.url}: the object ${JSON.stringify(object.key)} ${problem}, so it cannot be a file of a model directory; rename it`, {
        url: location.url,
        key: object.key,
      });
    }
  }
  const names = new Set(files.map((f) => f.rel));
  if (!names.has(MANIFEST_FILE_NAME) && !names.has(MODEL_FILE_NAME)) {
    const held = [...new Set(files.map((f) => f.rel.split('/')[0] ?? ''))].sort().slice(0, 10).join(', ');
    throw new SluiceError(
      'SLUICE_MANIFEST_NOT_FOUND',
      `${location.url} holds neither ${MANIFEST_FILE_NAME} nor ${MODEL_FILE_NAME} at the top of the prefix (it holds ${held}); upload the ONNX model there as ${MODEL_FILE_NAME}, or describe it in a ${MANIFEST_FILE_NAME}`,
      { url: location.url },
    );
  }
  const total = files.reduce((sum, f) => sum + f.object.size, 0);
  checkTotal(location.url, total, options.maxBytes);

  // Keyed by where the objects are, not how the URL was spelt: `s3://b/m` and `s3://b/m/` are one source.
  const where = [location.scheme, location.account ?? '', location.bucket, prefixDir];
  const version = sha256(JSON.stringify([...where, ...files.map((f) => [f.object.key, f.object.etag, f.object.size]).sort()]));
  const name = (location.prefix.replace(/\/$/, '').split('/').pop() ?? '').replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^[^A-Za-z0-9]+/, '') || location.bucket;
  const finalDir = join(sourcesDir, `${name.slice(0, 64)}-${version.slice(0, 16)}`);
  if (await exists(finalDir)) {
    options.logger?.info('model source already downloaded at this version; not downloading it again', { source: location.url });
    return { dir: finalDir, kind: 'directory', cached: true };
  }
  await mkdir(sourcesDir, { recursive: true });
  const workDir = await mkdtemp(join(sourcesDir, SOURCE_WORK_DIR_PREFIX));
  try {
    const progress = new DownloadProgress(options.logger, location.url, total, options.progressIntervalMs);
    let left = options.maxBytes;
    for (const { object, rel } of files) {
      const file = join(workDir, ...rel.split('/'));
      if (!isPathInside(workDir, file)) throw new SluiceError('SLUICE_MANIFEST_INVALID', `${location.url}: the object ${JSON.stringify(object.key)} would be written outside its directory`);
      await mkdir(dirname(file), { recursive: true });
      await downloadObject(location, store, object, file, left, signal, (count) => { progress.add(count); });
      left -= object.size;
    }
    progress.finish();
    await renameIntoPlace(workDir, finalDir);
    return { dir: finalDir, kind: 'directory', cached: false };
  } catch (error) {
    await rm(workDir, { recursive: true, force: true });
    throw error;
  }
}

function checkTotal(url: string, total: number, maxBytes: number): void {
  if (total <= maxBytes) return;
  throw new SluiceError(
    'SLUICE_MANAGEMENT_DOWNLOAD_FAILED',
    `${url} holds ${total} bytes, more than the download limit of ${maxBytes} bytes; raise download.maxBytes if the model is meant to be this large`,
    { url, bytes: total, maxBytes },
  );
}

async function renameIntoPlace(workDir: string, finalDir: string): Promise<void> {
  try {
    await rename(workDir, finalDir);
  } catch (error) {
    const code = nodeErrorCode(error);
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    // The same source at the same version, fetched by a registration beside this one: that copy is kept.
    await rm(workDir, { recursive: true, force: true });
  }
  await syncDirectory(dirname(finalDir));
}

/** Downloads one object to `file`, again when its body is cut short; removes the file on failure. */
async function downloadObject(
  location: ObjectStoreLocation,
  store: ObjectStore,
  object: StoredObject,
  file: string,
  maxBytes: number,
  signal: AbortSignal,
  onBytes: (count: number) => void,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    let written = 0;
    try {
      const body = await store.read(object, signal);
      await writeObject(body, { object, file, maxBytes, signal, onBytes: (count) => { written += count; onBytes(count); } });
      return;
    } catch (error) {
      await rm(file, { force: true });
      onBytes(-written);
      if (isSluiceError(error)) throw error;
      if (signal.aborted) throw downloadRefused(location.url, object.key, 'it did not finish within download.timeoutMs; raise it for models this large', error);
      const code = nodeErrorCode(error);
      if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EACCES' || code === 'EROFS') throw downloadRefused(location.url, object.key, diskAdvice(error), error);
      const limit = error instanceof BodyRefused && error.message.startsWith('it is larger');
      const mismatch = error instanceof BodyRefused && error.message.startsWith('its MD5');
      if (limit || mismatch || attempt >= BODY_ATTEMPTS) {
        const reason = error instanceof BodyRefused ? error.message : `the connection failed before the object was complete (${code ?? errorMessage(error)})`;
        throw downloadRefused(location.url, object.key, attempt > 1 ? `${reason}, ${attempt} attempts` : reason, error);
      }
      await sleep(BODY_RETRY_DELAY_MS * 2 ** (attempt - 1), undefined, { signal }).catch(() => undefined);
    }
  }
}

/** The record of an archive source already fetched: where it was unpacked, relative to the model store. */
interface ArchiveRecord {
  readonly dir: string;
}

async function fetchArchive(location: ObjectStoreLocation, store: ObjectStore, options: ObjectStoreFetchOptions, sourcesDir: string, signal: AbortSignal): Promise<FetchedSource> {
  const object = await store.head(location.prefix, signal);
  if (object === undefined) {
    throw new SluiceError('SLUICE_SOURCE_NOT_FOUND', `${store.label} has no object ${JSON.stringify(location.prefix)} (${location.url}); check the key, and upload the archive first`, {
      url: location.url,
      source: store.label,
    });
  }
  checkTotal(location.url, object.size, options.maxBytes);
  const storeDir = resolve(options.storeDir);
  const recordFile = join(sourcesDir, `${sha256(JSON.stringify([location.url, object.etag, object.size])).slice(0, 32)}.json`);
  const known = await readRecord(recordFile, storeDir);
  if (known !== undefined) {
    options.logger?.info('model source already downloaded at this version; not downloading it again', { source: location.url });
    return { dir: known, kind: 'archive', cached: true };
  }
  const downloads = join(storeDir, DOWNLOADS_DIR_NAME);
  await mkdir(downloads, { recursive: true });
  const file = join(downloads, `${randomBytes(8).toString('hex')}${ARCHIVE_EXTENSION}`);
  try {
    const progress = new DownloadProgress(options.logger, location.url, object.size, options.progressIntervalMs);
    await downloadObject(location, store, object, file, options.maxBytes, signal, (count) => { progress.add(count); });
    progress.finish();
    const dir = await extractModelArchive(file, storeDir, options.archiveLimits).catch((error: unknown) => {
      throw namedAfterUrl(error, file, location.url);
    });
    await mkdir(sourcesDir, { recursive: true });
    await writeFileAtomic(recordFile, JSON.stringify({ dir: relative(storeDir, dir) } satisfies ArchiveRecord));
    return { dir, kind: 'archive', cached: false };
  } finally {
    await rm(file, { force: true });
  }
}

async function readRecord(file: string, storeDir: string): Promise<string | undefined> {
  try {
    const record = JSON.parse(await readFile(file, 'utf8')) as Partial<ArchiveRecord>;
    if (typeof record.dir !== 'string') return undefined;
    const dir = resolve(storeDir, record.dir);
    return isPathInside(storeDir, dir) && (await exists(join(dir, MANIFEST_FILE_NAME))) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** An error about the downloaded temporary `file` as one about `url`, which the user gave. */
function namedAfterUrl(error: unknown, file: string, url: string): unknown {
  if (!isSluiceError(error) || !error.message.startsWith(file)) return error;
  const details = Object.fromEntries(Object.entries(error.details).map(([key, value]) => [key, typeof value === 'string' && value.startsWith(file) ? url + value.slice(file.length) : value]));
  return new SluiceError(error.code, url + error.message.slice(file.length), details, { cause: error });
}

/** Where and with which limits {@link fetchObjectStoreFile} keeps the object. */
export interface ObjectStoreFileOptions {
  /** The model store: the object is kept in its `.sources/`, beside the model sources. */
  readonly storeDir: string;
  readonly maxBytes: number;
  readonly timeoutMs: number;
  /** The name the object is kept under in its source directory (`workflow.yaml`, `workflow.sluice`). */
  readonly fileName: string;
  readonly logger?: Logger;
}

/** A fetched single object: the local file that holds it. */
export interface FetchedFile {
  readonly file: string;
  /** True when nothing was downloaded: the same object at the same entity tag was fetched before. */
  readonly cached: boolean;
}

/**
 * Downloads the one object `location` names (a workflow file or archive) into the model store's
 * `.sources/` and returns the local file, or finds it there already: kept by store, bucket, key and entity
 * tag, as model sources are, so another registration of the same object at the same version asks the
 * store for its entity tag only. Streamed, checked against `maxBytes` before and while it arrives, its size
 * and MD5 checked, written to a temporary directory renamed into place only when complete. Throws
 * `SLUICE_SOURCE_NOT_FOUND` when there is no such object.
 */
export async function fetchObjectStoreFile(location: ObjectStoreLocation, store: ObjectStore, options: ObjectStoreFileOptions): Promise<FetchedFile> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const object = location.prefix === '' || location.prefix.endsWith('/') ? undefined : await store.head(location.prefix, signal);
  if (object === undefined) {
    throw new SluiceError('SLUICE_SOURCE_NOT_FOUND', `${store.label} has no object ${JSON.stringify(location.prefix)} (${location.url}); check the key`, {
      url: location.url,
      source: store.label,
    });
  }
  checkTotal(location.url, object.size, options.maxBytes);
  const sourcesDir = join(resolve(options.storeDir), SOURCES_DIR_NAME);
  const version = sha256(JSON.stringify([location.scheme, location.account ?? '', location.bucket, object.key, object.etag, object.size]));
  const name = (object.key.split('/').pop() ?? '').replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^[^A-Za-z0-9]+/, '') || location.bucket;
  const finalDir = join(sourcesDir, `${name.slice(0, 64)}-${version.slice(0, 16)}`);
  const finalFile = join(finalDir, options.fileName);
  if (await exists(finalFile)) {
    options.logger?.info('source already downloaded at this version; not downloading it again', { source: location.url });
    return { file: finalFile, cached: true };
  }
  await mkdir(sourcesDir, { recursive: true });
  const workDir = await mkdtemp(join(sourcesDir, SOURCE_WORK_DIR_PREFIX));
  try {
    const progress = new DownloadProgress(options.logger, location.url, object.size);
    await downloadObject(location, store, object, join(workDir, options.fileName), options.maxBytes, signal, (count) => { progress.add(count); });
    progress.finish();
    await renameIntoPlace(workDir, finalDir);
    return { file: finalFile, cached: false };
  } catch (error) {
    await rm(workDir, { recursive: true, force: true });
    throw error;
  }
}

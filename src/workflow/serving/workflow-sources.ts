import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { isSluiceError, SluiceError } from '../../sdk/errors/index.js';
import type { SluiceConfig } from '../../config/index.js';
import {
  ARCHIVE_MANIFEST_NAME,
  checkObjectStoreUrl,
  checkRemoteUrl,
  DOWNLOADS_DIR_NAME,
  downloadArchive,
  fetchObjectStoreFile,
  isObjectStoreUrl,
  isPathInside,
  ObjectStoreOpener,
  SOURCES_DIR_NAME,
  type ArchiveManifest,
} from '../../model-store/index.js';
import { extractWorkflowArchive, WORKFLOW_FILE_NAME } from './workflow-archive.js';

/** A workflow file's text, where it was read from and the name problems are reported under. */
export interface WorkflowSource {
  readonly text: string;
  /** The file in the workflow store, or the URL it was downloaded from. */
  readonly file: string;
  /**
   * The name problems are reported under: the file's path relative to the workflow store (`ocr.yaml`,
   * `ocr/workflow.yaml`), or the URL; answers never show where the store lies on the server.
   */
  readonly name: string;
  /** The directory a TorchServe spec's `handler=` module is looked up in: the store, or the unpacked archive. */
  readonly baseDir: string;
  /** For an archive: the name it was packed under (a TorchServe spec's workflow name). */
  readonly packedAs?: string;
  /**
   * For an object-store source: its downloaded copy in the model store's `.sources/`, relative to the model
   * store; the snapshot records it so that a restore reads it instead of fetching the object again.
   */
  readonly storePath?: string;
}

/** Largest workflow file read, in bytes (the parser has its own limit too). */
const MAX_WORKFLOW_BYTES = 1024 * 1024;
const STORE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.+-]{0,254}$/;
const EXTENSIONS = ['', '.yaml', '.yml'];
const ARCHIVE_EXTENSION = '.sluice';
/** The name a downloaded workflow archive is kept under, before its extension. */
const WORKFLOW_FILE_BASE = 'workflow';

function notAllowed(url: string, reason: string): SluiceError {
  return new SluiceError(
    'SLUICE_MANAGEMENT_URL_NOT_ALLOWED',
    `workflow url ${JSON.stringify(url)} ${reason}; give a workflow-store name (a file, directory or .sluice archive in the workflow store) or an http(s) URL that allowedUrls allows`,
    { url },
  );
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Finds the workflow a registration's `url` names: a file in the workflow store (`ocr`, `ocr.yaml`), a
 * directory there holding `workflow.yaml`, a `.sluice` workflow archive there, or an http(s), `s3://` or
 * `azure://` URL that `allowedUrls` allows (a YAML file or a `.sluice` archive: an http(s) one downloaded into
 * the store's `.downloads/`, an object-store one kept in the model store's `.sources/` by its entity tag,
 * and read from there again when `storePath`, which a snapshot recorded, still names it).
 * Names never reach outside the store; archives are unpacked into the store's `.extracted/`.
 */
export async function readWorkflowSource(
  url: string,
  config: SluiceConfig,
  headers?: Readonly<Record<string, string>>,
  storePath?: string,
): Promise<WorkflowSource> {
  if (/^https?:\/\//i.test(url)) return readRemote(url, config, headers);
  if (isObjectStoreUrl(url)) return readObjectStore(url, config, storePath);
  if (!STORE_NAME.test(url) || url.includes('..')) throw notAllowed(url, 'is not a plain name in the workflow store');
  const store = config.workflowStore;
  if (url.endsWith(ARCHIVE_EXTENSION) && (await isFile(join(store, url)))) return readArchive(join(store, url), url, config);
  const candidates = [...EXTENSIONS.map((ext) => join(store, url + ext)), join(store, url, WORKFLOW_FILE_NAME)];
  for (const path of candidates) {
    if (await isFile(path)) return readStoreFile(path, relative(store, path), store);
  }
  throw new SluiceError(
    'SLUICE_WORKFLOW_NOT_FOUND',
    `the workflow store holds no workflow called ${JSON.stringify(url)} (looked for ${url}.yaml, ${url}.yml and ${url}/${WORKFLOW_FILE_NAME}; name an archive with its ${ARCHIVE_EXTENSION} extension)`,
    { url, workflowStore: store },
  );
}

async function readStoreFile(path: string, name: string, baseDir: string): Promise<WorkflowSource> {
  if ((await stat(path)).size > MAX_WORKFLOW_BYTES) throw new SluiceError('SLUICE_WORKFLOW_INVALID', `${name}: larger than ${MAX_WORKFLOW_BYTES} bytes`);
  return { text: await readFile(path, 'utf8'), file: path, name, baseDir };
}

/**
 * Unpacks a workflow archive and reads its `workflow.yaml`. Problems are reported under `name` (the
 * archive's store name or URL), never the server's path to it.
 */
async function readArchive(path: string, name: string, config: SluiceConfig): Promise<WorkflowSource> {
  let dir: string;
  try {
    dir = await extractWorkflowArchive(path, config);
  } catch (error) {
    if (isSluiceError(error) && error.message.startsWith(path)) {
      throw new SluiceError(error.code, name + error.message.slice(path.length), { ...error.details, archive: name });
    }
    throw error;
  }
  const manifest = JSON.parse(await readFile(join(dir, ARCHIVE_MANIFEST_NAME), 'utf8')) as ArchiveManifest;
  return { ...(await readStoreFile(join(dir, WORKFLOW_FILE_NAME), `${name}/${WORKFLOW_FILE_NAME}`, dir)), packedAs: manifest.name };
}

async function readRemote(url: string, config: SluiceConfig, headers: Readonly<Record<string, string>> | undefined): Promise<WorkflowSource> {
  // Checked before anything is made in the store: a URL that is refused (or is no URL) leaves no trace there.
  const isArchive = checkRemoteUrl(url, config.allowedUrls).pathname.endsWith(ARCHIVE_EXTENSION);
  const downloads = join(config.workflowStore, DOWNLOADS_DIR_NAME);
  await mkdir(downloads, { recursive: true });
  const file = join(downloads, `${randomBytes(8).toString('hex')}${isArchive ? ARCHIVE_EXTENSION : '.yaml'}`);
  try {
    await downloadArchive(url, file, {
      maxBytes: isArchive ? config.download.maxBytes : MAX_WORKFLOW_BYTES,
      timeoutMs: config.download.timeoutMs,
      allowedPatterns: config.allowedUrls,
      ...(headers !== undefined ? { headers } : {}),
    });
    if (isArchive) return await readArchive(file, url, config);
    return { text: await readFile(file, 'utf8'), file: url, name: url, baseDir: config.workflowStore };
  } finally {
    await rm(file, { force: true });
  }
}

async function readObjectStore(url: string, config: SluiceConfig, storePath: string | undefined): Promise<WorkflowSource> {
  // Checked before anything is made in the store or asked of the object store.
  const location = checkObjectStoreUrl(url, config.allowedUrls);
  const isArchive = location.prefix.endsWith(ARCHIVE_EXTENSION);
  const kept = storePath !== undefined ? await keptSourceFile(storePath, config.modelStore) : undefined;
  const file =
    kept ??
    (
      await fetchObjectStoreFile(location, new ObjectStoreOpener().open(location), {
        storeDir: config.modelStore,
        maxBytes: isArchive ? config.download.maxBytes : MAX_WORKFLOW_BYTES,
        timeoutMs: config.download.timeoutMs,
        fileName: isArchive ? `${WORKFLOW_FILE_BASE}${ARCHIVE_EXTENSION}` : WORKFLOW_FILE_NAME,
      })
    ).file;
  const stored = relative(resolve(config.modelStore), file);
  if (isArchive) {
    // Unpacked into the workflow store's `.extracted/`: the store is made when it is not there yet.
    await mkdir(config.workflowStore, { recursive: true });
    return { ...(await readArchive(file, url, config)), storePath: stored };
  }
  if ((await stat(file)).size > MAX_WORKFLOW_BYTES) throw new SluiceError('SLUICE_WORKFLOW_INVALID', `${url}: larger than ${MAX_WORKFLOW_BYTES} bytes`);
  return { text: await readFile(file, 'utf8'), file: url, name: url, baseDir: config.workflowStore, storePath: stored };
}

/** The downloaded copy a snapshot recorded (relative to the model store), when it is still in its `.sources/`. */
async function keptSourceFile(storePath: string, modelStore: string): Promise<string | undefined> {
  const sources = join(resolve(modelStore), SOURCES_DIR_NAME);
  const file = resolve(modelStore, storePath);
  return isPathInside(sources, file) && (await isFile(file)) ? file : undefined;
}

/**
 * A file a registration names (a TorchServe spec's handler module): in the workflow store, or in the
 * unpacked archive the spec came in (`baseDir`).
 */
export async function readWorkflowModule(name: string, baseDir: string): Promise<{ path: string }> {
  if (!STORE_NAME.test(name) || name.includes('..')) throw notAllowed(name, 'is not a plain file name in the workflow store');
  const path = join(baseDir, name);
  if (!(await isFile(path))) {
    throw new SluiceError('SLUICE_WORKFLOW_NOT_FOUND', `the workflow store holds no file called ${JSON.stringify(name)}`, { file: name });
  }
  return { path };
}

/**
 * The handler module a TorchServe spec brings by convention: `<spec>.js` or `<spec>.mjs` next to it (or
 * `handler.js` in a workflow directory); undefined when there is none.
 */
export async function findSiblingModule(specFile: string): Promise<string | undefined> {
  const base = specFile.replace(/\.ya?ml$/, '');
  const candidates = [`${base}.js`, `${base}.mjs`, join(dirname(specFile), 'handler.js')];
  for (const path of candidates) if (await isFile(path)) return path;
  return undefined;
}

/**
 * Names of the workflows in the store: `*.yaml`/`*.yml` files, directories holding `workflow.yaml` and
 * `*.sluice` archives (by their file name).
 */
export async function scanWorkflowStore(store: string): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  let entries;
  try {
    entries = await readdir(store, { withFileTypes: true });
  } catch {
    return [];
  }
  const names: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isFile() && /\.ya?ml$/.test(entry.name)) names.push(entry.name.replace(/\.ya?ml$/, ''));
    else if (entry.isFile() && entry.name.endsWith(ARCHIVE_EXTENSION)) names.push(entry.name);
    else if (entry.isDirectory() && (await isFile(join(store, entry.name, WORKFLOW_FILE_NAME)))) names.push(entry.name);
  }
  return [...new Set(names)].sort();
}

import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SluiceError } from '../../sdk/errors/index.js';
import { errorMessage, nodeErrorCode } from '../../sdk/files/error-facts.js';
import { MODEL_FILE_NAME } from '../manifest/model-directory.js';
import { MANIFEST_FILE_NAME } from '../manifest/model-manifest.js';
import { ARCHIVE_EXTENSION, MAR_FILE_EXTENSION, type StoreEntry } from './store-entry.js';

type Kind = 'directory' | 'file' | 'other' | 'missing' | 'unreadable';

/** Whether `error` says that a path exists but this process may not look at it. */
function refused(error: unknown): boolean {
  const code = nodeErrorCode(error);
  return code === 'EACCES' || code === 'EPERM';
}

// stat, not lstat: an operator may link a model directory into the store on purpose.
async function kindOf(path: string): Promise<Kind> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : 'other';
  } catch (error) {
    const code = nodeErrorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return 'missing';
    if (refused(error)) return 'unreadable';
    throw error;
  }
}

async function visibleNames(dir: string): Promise<string[]> {
  const names = await readdir(dir);
  return names.filter((name) => !name.startsWith('.')).sort();
}

/**
 * Whether `dir` holds a manifest. One that may not be looked at counts as held: the entry is then listed,
 * and loading it says what cannot be read, instead of the model going missing without a word.
 */
async function hasManifest(dir: string): Promise<boolean> {
  const kind = await kindOf(join(dir, MANIFEST_FILE_NAME));
  return kind === 'file' || kind === 'unreadable';
}

/** The visible names inside `dir`, or undefined when it may not be listed. */
async function listedNames(dir: string): Promise<string[] | undefined> {
  try {
    return await visibleNames(dir);
  } catch (error) {
    if (refused(error)) return undefined;
    throw error;
  }
}

async function entriesUnder(storeDir: string, name: string): Promise<StoreEntry[]> {
  const path = join(storeDir, name);
  const kind = await kindOf(path);
  if (kind === 'file' && name.endsWith(ARCHIVE_EXTENSION) && name.length > ARCHIVE_EXTENSION.length) {
    return [{ source: 'archive', path, storeName: name }];
  }
  if (kind === 'file' && name.endsWith(MAR_FILE_EXTENSION) && name.length > MAR_FILE_EXTENSION.length) {
    return [{ source: 'mar', path, storeName: name }];
  }
  if (kind === 'unreadable') return [{ source: 'directory', path, storeName: name }];
  if (kind !== 'directory') return [];
  if (await hasManifest(path)) return [{ source: 'directory', path, storeName: name }];
  if ((await kindOf(join(path, MODEL_FILE_NAME))) === 'file') return [{ source: 'model-file', path, storeName: name }];
  const subs = await listedNames(path);
  // A directory that may not be listed is listed itself, so that loading it says why.
  if (subs === undefined) return [{ source: 'directory', path, storeName: name }];
  const versions: StoreEntry[] = [];
  for (const sub of subs) {
    const versionDir = join(path, sub);
    const subKind = await kindOf(versionDir);
    if (subKind === 'unreadable' || (subKind === 'directory' && (await hasManifest(versionDir)))) {
      versions.push({ source: 'directory', path: versionDir, storeName: name });
    }
  }
  return versions;
}

/**
 * Lists every model version in the store, sorted by store name then path: directories holding a
 * `model.yaml`, directories holding `model.onnx` and no `model.yaml` (served under the directory's
 * name with a made manifest), version directories one level below (`iris/1.0/model.yaml`), `*.sluice`
 * archives and TorchServe `*.mar` archives. Names starting with `.` (such as `.extracted`, where archives are unpacked) are
 * skipped. Only looks at file names; manifests are not validated here. An entry this process may not
 * look at is listed as a model directory, so that loading it fails saying what cannot be read; a store
 * that cannot be read at all is `SLUICE_CONFIG_INVALID`.
 */
export async function scanModelStore(storeDir: string): Promise<readonly StoreEntry[]> {
  const root = resolve(storeDir);
  const kind = await kindOf(root);
  if (kind !== 'directory' && kind !== 'unreadable') {
    throw new SluiceError(
      'SLUICE_CONFIG_INVALID',
      `${root}: the model store is not a directory; create it or point modelStore at an existing directory`,
      { source: root },
    );
  }
  let names: string[];
  try {
    names = await visibleNames(root);
  } catch (error) {
    if (!refused(error)) throw error;
    throw new SluiceError(
      'SLUICE_CONFIG_INVALID',
      `${root}: the model store cannot be read (${errorMessage(error)}); make it readable by the user Sluice runs as, or point modelStore at another directory`,
      { source: root },
      { cause: error },
    );
  }
  const entries: StoreEntry[] = [];
  for (const name of names) entries.push(...(await entriesUnder(root, name)));
  return entries;
}

/** The entries found under one store name (empty when the name holds no model). */
export async function scanStoreName(storeDir: string, name: string): Promise<readonly StoreEntry[]> {
  return entriesUnder(resolve(storeDir), name);
}

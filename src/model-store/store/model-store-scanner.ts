import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SluiceError } from '../../common/errors/index.js';
import { nodeErrorCode } from '../fs/error-facts.js';
import { MANIFEST_FILE_NAME } from '../manifest/model-manifest.js';
import { ARCHIVE_EXTENSION, type StoreEntry } from './store-entry.js';

type Kind = 'directory' | 'file' | 'other' | 'missing';

// stat, not lstat: an operator may link a model directory into the store on purpose.
async function kindOf(path: string): Promise<Kind> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : 'other';
  } catch (error) {
    const code = nodeErrorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return 'missing';
    throw error;
  }
}

async function visibleNames(dir: string): Promise<string[]> {
  const names = await readdir(dir);
  return names.filter((name) => !name.startsWith('.')).sort();
}

async function hasManifest(dir: string): Promise<boolean> {
  return (await kindOf(join(dir, MANIFEST_FILE_NAME))) === 'file';
}

async function entriesUnder(storeDir: string, name: string): Promise<StoreEntry[]> {
  const path = join(storeDir, name);
  const kind = await kindOf(path);
  if (kind === 'file' && name.endsWith(ARCHIVE_EXTENSION) && name.length > ARCHIVE_EXTENSION.length) {
    return [{ source: 'archive', path, storeName: name }];
  }
  if (kind !== 'directory') return [];
  if (await hasManifest(path)) return [{ source: 'directory', path, storeName: name }];
  const versions: StoreEntry[] = [];
  for (const sub of await visibleNames(path)) {
    const versionDir = join(path, sub);
    if ((await kindOf(versionDir)) === 'directory' && (await hasManifest(versionDir))) {
      versions.push({ source: 'directory', path: versionDir, storeName: name });
    }
  }
  return versions;
}

/**
 * Lists every model version in the store, sorted by store name then path: directories holding a
 * `model.yaml`, version directories one level below (`iris/1.0/model.yaml`), and `*.sluice`
 * archives. Names starting with `.` (such as `.extracted`, where archives are unpacked) are
 * skipped. Only looks at file names; manifests are not validated here.
 */
export async function scanModelStore(storeDir: string): Promise<readonly StoreEntry[]> {
  const root = resolve(storeDir);
  if ((await kindOf(root)) !== 'directory') {
    throw new SluiceError(
      'SLUICE_CONFIG_INVALID',
      `${root}: the model store is not a directory; create it or point modelStore at an existing directory`,
      { source: root },
    );
  }
  const entries: StoreEntry[] = [];
  for (const name of await visibleNames(root)) entries.push(...(await entriesUnder(root, name)));
  return entries;
}

/** The entries found under one store name (empty when the name holds no model). */
export async function scanStoreName(storeDir: string, name: string): Promise<readonly StoreEntry[]> {
  return entriesUnder(resolve(storeDir), name);
}

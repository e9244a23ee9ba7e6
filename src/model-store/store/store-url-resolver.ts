import { resolve } from 'node:path';
import { SluiceError } from '../../sdk/errors/index.js';
import { scanModelStore, scanStoreName } from './model-store-scanner.js';
import type { StoreEntry } from './store-entry.js';

const ACCEPTED =
  'only names of entries directly inside the model store (such as iris or iris.sluice) or http(s) URLs that match the allowed URL patterns are accepted';

/** How many store names an unknown-name error lists before it stops. */
const LISTED_NAMES = 20;

function notAllowed(url: string, reason: string): SluiceError {
  return new SluiceError('SLUICE_MANAGEMENT_URL_NOT_ALLOWED', `url ${JSON.stringify(url)} ${reason}; ${ACCEPTED}`, {
    url,
    reason,
  });
}

/** Why `url` cannot be a store name, or undefined when it can. */
function storeNameProblem(url: string): string | undefined {
  if (url === '') return 'is empty';
  if (url.includes('\0')) return 'contains a NUL byte';
  if (url.startsWith('/') || url.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(url)) return 'is an absolute path';
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url)) return 'has a URL scheme that is not allowed here';
  if (url.includes('/') || url.includes('\\')) return 'contains a path separator';
  if (url.includes('%')) return 'contains percent-encoding';
  if (url.includes('..')) return "contains '..'";
  if (url.startsWith('.')) return "starts with '.'";
  if (!/^[A-Za-z0-9][A-Za-z0-9_.+-]{0,254}$/.test(url)) return 'contains characters that are not allowed in a store name';
  return undefined;
}

/**
 * Resolves the management API's `url` parameter when it is not an http(s) URL: the name of a
 * directory or `.sluice` archive directly inside the store. Returns every model version found
 * under that name (several for a directory of version directories). Throws
 * `SLUICE_MANAGEMENT_URL_NOT_ALLOWED` for anything that could reach outside the store (paths,
 * schemes, encoded traversal, NUL) and `SLUICE_MANIFEST_NOT_FOUND`, listing the store's names,
 * when the name holds no model.
 */
export async function resolveStoreUrl(storeDir: string, url: string): Promise<readonly StoreEntry[]> {
  const problem = storeNameProblem(url);
  if (problem !== undefined) throw notAllowed(url, problem);
  const root = resolve(storeDir);
  const found = await scanStoreName(root, url);
  if (found.length > 0) return found;

  const names = [...new Set((await scanModelStore(root)).map((entry) => entry.storeName))];
  const more = names.length > LISTED_NAMES ? ', …' : '';
  const listed = names.length === 0 ? 'the store is empty' : `the store has: ${names.slice(0, LISTED_NAMES).join(', ')}${more}`;
  const advice = 'pass one of these names, or put the model directory or .sluice archive into the store first';
  throw new SluiceError('SLUICE_MANIFEST_NOT_FOUND', `url ${JSON.stringify(url)} names no model in the model store (${listed}); ${advice}`, {
    url,
    available: names,
  });
}

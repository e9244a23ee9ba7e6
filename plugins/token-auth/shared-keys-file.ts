import { readFile } from 'node:fs/promises';
import { SHARED_KEY_TYPES, SharedKeySet, sharedKeysUnusable, type SharedKeySource, type SharedKeyType } from './shared-keys.js';

/** An error's message; Node's own errors may come from another realm, so not by `instanceof Error`. */
function messageOf(error: unknown): string {
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : String(error);
}

/** How a keys file is named in messages. */
export function keysFileSource(file: string): SharedKeySource {
  return { describe: `the keys file ${file}`, keyName: (type) => `"${type}"` };
}

/**
 * Reads the shared keys from `file`, a JSON object `{"inference": …, "management": …}` whose members are
 * each one key or a list of keys (a Kubernetes Secret mounted as a file, say). A file that is missing,
 * unreadable, not such an object, with another member or an unusable key is refused naming the file and
 * the member (`SLUICE_PLUGIN_LOAD_FAILED`).
 */
export async function readSharedKeysFile(file: string): Promise<SharedKeySet> {
  const source = keysFileSource(file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch (error) {
    throw sharedKeysUnusable(source, messageOf(error), { file }, error);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw sharedKeysUnusable(source, 'it must be a JSON object with the members "inference" and "management", each a key or a list of keys', { file });
  }
  const known: readonly string[] = SHARED_KEY_TYPES;
  const other = Object.keys(parsed).find((member) => !known.includes(member));
  if (other !== undefined) throw sharedKeysUnusable(source, `it has a member ${JSON.stringify(other)}; only "inference" and "management" belong there`, { file, key: other });
  const values = parsed as Readonly<Partial<Record<SharedKeyType, unknown>>>;
  return SharedKeySet.of({ inference: values.inference, management: values.management }, source);
}

import { createHash, timingSafeEqual } from 'node:crypto';
import { SluiceError } from '../../src/sdk/index.js';

/** The keys a fleet shares: one for the inference API, one for the management and metrics APIs. */
export const SHARED_KEY_TYPES = ['inference', 'management'] as const;
export type SharedKeyType = (typeof SHARED_KEY_TYPES)[number];

/** The shortest shared key accepted, in characters: a key every replica shares must not be guessable. */
export const MIN_SHARED_KEY_LENGTH = 32;

/** Printable ASCII without spaces or commas (commas separate keys in an environment variable). */
const KEY_CHARACTERS = /^[\x21-\x2b\x2d-\x7e]+$/;

function digestOf(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** A value's kind for messages; never the value itself, which may be a key. */
function kindOf(value: unknown): string {
  if (typeof value === 'string') return `a ${value.length}-character string`;
  if (Array.isArray(value)) return 'a list';
  return value === null ? 'null' : typeof value;
}

/** Why `key` cannot be a shared key, or undefined when it can. */
function keyProblem(key: unknown): string | undefined {
  if (typeof key !== 'string') return `is ${kindOf(key)}, not a string`;
  if (key.length < MIN_SHARED_KEY_LENGTH) return `is ${key.length} characters long; a shared key needs at least ${MIN_SHARED_KEY_LENGTH} (for example \`openssl rand -base64 32\`)`;
  if (!KEY_CHARACTERS.test(key)) return 'holds a space, a comma or a character outside printable ASCII';
  return undefined;
}

/**
 * Where shared keys come from, for messages: `describe` names the source, `keyName` the place of one key
 * type in it (a member of a file, an environment variable).
 */
export interface SharedKeySource {
  readonly describe: string;
  keyName(type: SharedKeyType): string;
}

/** A refusal of a source of shared keys, naming it and, when one is at fault, the key. */
export function sharedKeysUnusable(source: SharedKeySource, reason: string, details: Readonly<Record<string, unknown>> = {}, cause?: unknown): SluiceError {
  return new SluiceError('SLUICE_PLUGIN_LOAD_FAILED', `token-auth: cannot use ${source.describe}: ${reason}`, { plugin: 'token-auth', ...details }, { cause });
}

/**
 * The keys every replica of a fleet shares, read from a mounted secret or the environment: for each API
 * family one key or several (several while a rotation overlaps). They do not expire: they change when
 * their source does. Tokens are compared by their SHA-256 digests with `timingSafeEqual` against every
 * key, so the time taken tells nothing of how close a guess was.
 */
export class SharedKeySet {
  private constructor(private readonly keys: readonly { readonly type: SharedKeyType; readonly digest: Buffer }[]) {}

  /**
   * The keys of `values` (for each type: one key or a non-empty list of them). A missing type, or a key
   * that is too short or holds a space, a comma or a non-ASCII character, is refused naming the source
   * and the key (`SLUICE_PLUGIN_LOAD_FAILED`); the key itself is never in the message.
   */
  static of(values: Readonly<Record<SharedKeyType, unknown>>, source: SharedKeySource): SharedKeySet {
    const keys: { type: SharedKeyType; digest: Buffer }[] = [];
    for (const type of SHARED_KEY_TYPES) {
      const value = values[type];
      const name = source.keyName(type);
      if (value === undefined) throw sharedKeysUnusable(source, `${name} is missing; it must hold the ${type} key (or a list of them)`, { key: type });
      const list: readonly unknown[] = Array.isArray(value) ? value : [value];
      if (list.length === 0) throw sharedKeysUnusable(source, `${name} is an empty list; it must hold at least one ${type} key`, { key: type });
      list.forEach((key, index) => {
        const problem = keyProblem(key);
        const which = Array.isArray(value) ? `${name}[${index}]` : name;
        if (problem !== undefined) throw sharedKeysUnusable(source, `${which} ${problem}`, { key: type });
        keys.push({ type, digest: digestOf(key as string) });
      });
    }
    const seen = new Map<string, SharedKeyType>();
    for (const { type, digest } of keys) {
      const other = seen.get(digest.toString('hex'));
      if (other !== undefined && other !== type) {
        throw sharedKeysUnusable(source, `${source.keyName('inference')} and ${source.keyName('management')} hold the same key; give each API family its own`, { key: type });
      }
      seen.set(digest.toString('hex'), type);
    }
    return new SharedKeySet(keys);
  }

  /** Which type of key `token` is, or undefined when it is none of them. */
  match(token: string): SharedKeyType | undefined {
    const presented = digestOf(token);
    let found: SharedKeyType | undefined;
    for (const { type, digest } of this.keys) {
      if (timingSafeEqual(presented, digest)) found = type;
    }
    return found;
  }
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The three keys of token-auth: one per guarded API family, and the API key that rotates the others. */
export type KeyType = 'inference' | 'management' | 'api';

/** Keys that `GET /token?type=` can rotate. */
export const ROTATABLE_KEY_TYPES = ['inference', 'management'] as const;
export type RotatableKeyType = (typeof ROTATABLE_KEY_TYPES)[number];

/** One key with its expiry (epoch milliseconds; null: never). */
export interface IssuedKey {
  readonly key: string;
  readonly expiresAt: number | null;
}

/** The key file's content: each key and when it expires (ISO 8601, or null). */
export type KeyFileContent = Readonly<Record<KeyType, { readonly key: string; readonly expiresAt: string | null }>>;

/** Which key a presented token is, and whether it has expired. */
export interface KeyMatch {
  readonly type: KeyType;
  readonly expired: boolean;
}

interface StoredKey extends IssuedKey {
  readonly digest: Buffer;
}

const KEY_TYPES: readonly KeyType[] = ['inference', 'management', 'api'];

function digestOf(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** A fresh random key: 32 bytes from the system CSPRNG, URL-safe base64 (43 characters). */
export function newKey(): string {
  return randomBytes(32).toString('base64url');
}

/** Lifetimes in milliseconds per key type; null: the key does not expire. */
export type KeyLifetimes = Readonly<Record<KeyType, number | null>>;

/**
 * The current keys, held in memory. Tokens are compared by their SHA-256 digests with
 * `timingSafeEqual`, against every key, so neither the comparison time nor an early exit tells how much of
 * a guess was right. A rotated key is replaced at once: the old one matches nothing.
 */
export class TokenKeys {
  private keys: Readonly<Record<KeyType, StoredKey>>;

  constructor(
    private readonly lifetimes: KeyLifetimes,
    private readonly now: () => number,
  ) {
    const issued = {} as Record<KeyType, StoredKey>;
    for (const type of KEY_TYPES) issued[type] = this.issue(type);
    this.keys = issued;
  }

  /** Which key `token` is, or undefined when it is none of them. */
  match(token: string): KeyMatch | undefined {
    const presented = digestOf(token);
    let found: KeyType | undefined;
    for (const type of KEY_TYPES) {
      if (timingSafeEqual(presented, this.keys[type].digest)) found = type;
    }
    if (found === undefined) return undefined;
    const { expiresAt } = this.keys[found];
    return { type: found, expired: expiresAt !== null && this.now() >= expiresAt };
  }

  /** The keys as they would be after rotating `type`, without applying them (see {@link apply}). */
  rotated(type: RotatableKeyType): Readonly<Record<KeyType, StoredKey>> {
    return { ...this.keys, [type]: this.issue(type) };
  }

  /** Makes `keys` (from {@link rotated}) the current ones. */
  apply(keys: Readonly<Record<KeyType, StoredKey>>): void {
    this.keys = keys;
  }

  /** The current key of `type`. */
  current(type: KeyType): IssuedKey {
    const { key, expiresAt } = this.keys[type];
    return { key, expiresAt };
  }

  /** The key file's content for `keys` (default: the current ones). */
  fileContent(keys: Readonly<Record<KeyType, StoredKey>> = this.keys): KeyFileContent {
    const entry = (type: KeyType): KeyFileContent[KeyType] => {
      const { key, expiresAt } = keys[type];
      return { key, expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString() };
    };
    return { inference: entry('inference'), management: entry('management'), api: entry('api') };
  }

  private issue(type: KeyType): StoredKey {
    const key = newKey();
    const lifetime = this.lifetimes[type];
    return { key, digest: digestOf(key), expiresAt: lifetime === null ? null : this.now() + lifetime };
  }
}

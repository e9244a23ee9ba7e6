import { SluiceError, type Logger } from '../../src/sdk/index.js';
import { keyFileJson, type KeyFileLayout } from './key-file-layout.js';
import { writeKeyFile } from './key-file-writer.js';
import type { TokenAuthOptions } from './token-auth-options.js';
import { TokenKeys, type IssuedKey, type KeyType, type RotatableKeyType } from './token-keys.js';

const MINUTE_MS = 60_000;

/** What a key is called in messages. */
const KEY_NAMES: Readonly<Record<KeyType, string>> = { inference: 'inference key', management: 'management key', api: 'API key' };

/**
 * token-auth's keys and their key file: checks presented tokens, rotates keys, and keeps the file in step
 * with memory (the file is written first, so a failed write leaves the old keys working).
 */
export class TokenKeyService {
  /** Key file writes (publishing, rotations) run one after the other, so the file always holds the latest keys. */
  private writes: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly keys: TokenKeys,
    readonly keyFile: string,
    private readonly logger: Logger,
    private readonly expirationMinutes: number,
    private readonly layout: KeyFileLayout,
  ) {}

  /** Makes fresh keys, in memory only: the key file is written by {@link publish}. */
  static create(options: TokenAuthOptions, logger: Logger, now: () => number = Date.now): TokenKeyService {
    const lifetime = options.expirationMinutes * MINUTE_MS;
    const apiLifetime = options.apiKeyExpirationMinutes === null ? null : options.apiKeyExpirationMinutes * MINUTE_MS;
    const keys = new TokenKeys({ inference: lifetime, management: lifetime, api: apiLifetime }, now);
    return new TokenKeyService(keys, options.keyFile, logger, options.expirationMinutes, options.keyFileLayout);
  }

  /** Writes the current keys to the key file (after any rotation in progress); logs where it is, never the keys. */
  publish(): Promise<void> {
    const written = this.writes.then(async () => {
      await writeKeyFile(this.keyFile, keyFileJson(this.keys.fileContent(), this.layout));
      this.logger.info('token-auth keys written', { keyFile: this.keyFile, expirationMinutes: this.expirationMinutes });
    });
    this.writes = written.catch(() => undefined);
    return written;
  }

  /**
   * Checks that `token` is the current, unexpired key of type `accepted`. Throws
   * `SLUICE_AUTH_INVALID_CREDENTIALS` for a token that is no current key (a rotated one included),
   * `SLUICE_AUTH_EXPIRED_CREDENTIALS` for an expired key, `SLUICE_AUTH_FORBIDDEN` for another key.
   */
  verify(token: string, accepted: KeyType): KeyType {
    const match = this.keys.match(token);
    if (match === undefined) {
      throw new SluiceError(
        'SLUICE_AUTH_INVALID_CREDENTIALS',
        `the token is not a current key; a rotated key stops working at once: read the ${KEY_NAMES[accepted]} from the server's key file`,
      );
    }
    if (match.expired) {
      const renew = match.type === 'api' ? 'restart the server for a new one' : `get a new one with GET /token?type=${match.type} and the API key`;
      throw new SluiceError('SLUICE_AUTH_EXPIRED_CREDENTIALS', `the ${KEY_NAMES[match.type]} has expired; ${renew}`);
    }
    if (match.type !== accepted) {
      throw new SluiceError('SLUICE_AUTH_FORBIDDEN', `the ${KEY_NAMES[match.type]} is not accepted here; use the ${KEY_NAMES[accepted]}`, {
        presented: match.type,
        required: accepted,
      });
    }
    return match.type;
  }

  /** Replaces the key of `type` with a fresh one (fresh expiry too), writes the key file, and returns it. */
  rotate(type: RotatableKeyType): Promise<IssuedKey> {
    const rotation = this.writes.then(async () => {
      const next = this.keys.rotated(type);
      await writeKeyFile(this.keyFile, keyFileJson(this.keys.fileContent(next), this.layout));
      this.keys.apply(next);
      return this.keys.current(type);
    });
    this.writes = rotation.catch(() => undefined);
    return rotation;
  }

  /** The current key of `type` (for tests and embedders that hand keys out themselves). */
  current(type: KeyType): IssuedKey {
    return this.keys.current(type);
  }
}

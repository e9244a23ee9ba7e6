import { stat } from 'node:fs/promises';
import { errors, type JWTVerifyGetKey } from 'jose';
import type { Logger } from '../../src/sdk/index.js';
import { readJwksFile } from './jwks-file.js';

/** The least time between two looks at the JWKS file prompted by tokens whose key is not among those read, in ms. */
export const UNKNOWN_KEY_CHECK_MS = 1_000;

/** What identifies one version of the file without reading it: inode (a file replaced by rename), size, mtime. */
async function fileVersion(file: string): Promise<string> {
  try {
    const info = await stat(file, { bigint: true });
    return `${info.ino}:${info.size}:${info.mtimeNs}`;
  } catch (error) {
    return `unreadable:${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  }
}

/**
 * The keys of a JWKS file, read again when the file changes. The file is looked at (a `stat`, read only
 * when its inode, size or mtime changed) by the first token verified `intervalMs` after the last look, and
 * at once, at most every {@link UNKNOWN_KEY_CHECK_MS}, for a token whose key is not among those read; so
 * a verification does no file I/O otherwise. A new version that cannot be used (unreadable, not JSON, no
 * usable key) leaves the keys read before in use and is logged once, as a warning naming the file and why;
 * a key removed from the file stops verifying tokens once the new version is read.
 */
export class ReloadingJwks {
  private checkedAt: number;
  private checking: Promise<void> | undefined;

  private constructor(
    private readonly file: string,
    private keys: JWTVerifyGetKey,
    private version: string,
    /** Time between looks at the file, in ms; 0: never looked at again. */
    private readonly intervalMs: number,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {
    this.checkedAt = now();
  }

  /** Reads `file`; a file that cannot be used is thrown, as at start-up (`SLUICE_PLUGIN_LOAD_FAILED`). */
  static async open(file: string, intervalMs: number, logger: Logger, now: () => number): Promise<ReloadingJwks> {
    // The version is taken before the read, so a change during the read is seen at the next look.
    const version = await fileVersion(file);
    return new ReloadingJwks(file, await readJwksFile(file), version, intervalMs, logger, now);
  }

  /** The key resolver `jwtVerify` takes: the token's key by its `kid` and `alg` among the keys in use. */
  readonly getKey: JWTVerifyGetKey = async (header, token) => {
    if (this.intervalMs > 0 && this.now() - this.checkedAt >= this.intervalMs) await this.check();
    try {
      return await this.keys(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey) || this.intervalMs === 0 || this.now() - this.checkedAt < UNKNOWN_KEY_CHECK_MS) throw error;
      await this.check();
      return await this.keys(header, token);
    }
  };

  /** One look at the file, shared by the verifications that ask for it meanwhile. */
  private check(): Promise<void> {
    this.checking ??= this.reloadIfChanged().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async reloadIfChanged(): Promise<void> {
    this.checkedAt = this.now();
    const version = await fileVersion(this.file);
    if (version === this.version) return;
    this.version = version;
    try {
      this.keys = await readJwksFile(this.file);
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error);
      this.logger.warn(`${problem}; the keys read before stay in use until the file is fixed`, { jwksFile: this.file });
      return;
    }
    this.logger.info('jwt-auth keys read again: the JWKS file changed', { jwksFile: this.file });
  }
}

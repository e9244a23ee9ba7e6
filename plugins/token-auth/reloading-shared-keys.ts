import { stat } from 'node:fs/promises';
import type { Logger } from '../../src/sdk/index.js';
import type { SharedKeySet, SharedKeyType } from './shared-keys.js';
import { readSharedKeysFile } from './shared-keys-file.js';

/** The least time between two looks at the keys file prompted by tokens that match no key, in ms. */
export const UNKNOWN_TOKEN_CHECK_MS = 1_000;

/**
 * What identifies one version of the file without reading it: inode, size and mtime of what the path
 * leads to (a Kubernetes Secret volume swaps a symbolic link to a new directory, so the inode changes).
 */
async function fileVersion(file: string): Promise<string> {
  try {
    const info = await stat(file, { bigint: true });
    return `${info.ino}:${info.size}:${info.mtimeNs}`;
  } catch (error) {
    return `unreadable:${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  }
}

/**
 * The shared keys of a keys file, read again when the file changes, so that updating the Secret rotates
 * the keys of every replica without a restart. The file is looked at (a `stat`; read only when its inode,
 * size or mtime changed) by the first token checked `intervalMs` after the last look, and at once, at
 * most every {@link UNKNOWN_TOKEN_CHECK_MS}, for a token that matches no key; a check does no file I/O
 * otherwise. A new version that cannot be used leaves the keys read before in use and is logged as a
 * warning naming the file and why; a key removed from the file stops working once the new version is read.
 */
export class ReloadingSharedKeys {
  private checkedAt: number;
  private checking: Promise<void> | undefined;

  private constructor(
    readonly file: string,
    private keys: SharedKeySet,
    private version: string,
    /** Time between looks at the file, in ms; 0: never looked at again. */
    private readonly intervalMs: number,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {
    this.checkedAt = now();
  }

  /** Reads `file`; a file that cannot be used is thrown, as at start-up (`SLUICE_PLUGIN_LOAD_FAILED`). */
  static async open(file: string, intervalMs: number, logger: Logger, now: () => number = Date.now): Promise<ReloadingSharedKeys> {
    // The version is taken before the read, so a change during the read is seen at the next look.
    const version = await fileVersion(file);
    return new ReloadingSharedKeys(file, await readSharedKeysFile(file), version, intervalMs, logger, now);
  }

  /** Which type of key `token` is among the keys in use, or undefined when it is none. */
  async match(token: string): Promise<SharedKeyType | undefined> {
    if (this.intervalMs > 0 && this.now() - this.checkedAt >= this.intervalMs) await this.check();
    const type = this.keys.match(token);
    if (type !== undefined || this.intervalMs === 0 || this.now() - this.checkedAt < UNKNOWN_TOKEN_CHECK_MS) return type;
    await this.check();
    return this.keys.match(token);
  }

  /** One look at the file, shared by the checks that ask for it meanwhile. */
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
      this.keys = await readSharedKeysFile(this.file);
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error);
      this.logger.warn(`${problem}; the keys read before stay in use until the file is fixed`, { keysFile: this.file });
      return;
    }
    this.logger.info('token-auth keys read again: the keys file changed', { keysFile: this.file });
  }
}

import { errors, type JWTVerifyGetKey } from 'jose';
import { SluiceError, type Logger } from '../../src/sdk/index.js';
import { fetchJson } from './json-fetch.js';
import { keySetOf } from './jwks-file.js';

/** How a {@link RemoteJwks} fetches its keys, in milliseconds. */
export interface RemoteJwksTiming {
  /** Time after a fetch when the next token has the keys fetched again; 0: fetched at start-up only. */
  readonly refreshMs: number;
  /** The least time between two fetches, whatever prompts them (a token of an unknown `kid`, a refresh after a failure). */
  readonly cooldownMs: number;
  /** The longest one fetch may take. */
  readonly timeoutMs: number;
}

function unusable(url: URL, reason: string, cause?: unknown): SluiceError {
  return new SluiceError('SLUICE_PLUGIN_LOAD_FAILED', `jwt-auth: cannot use the JWKS at ${url.href}: ${reason}`, { plugin: 'jwt-auth', url: url.href }, { cause });
}

/** Fetches the key set at `url` and checks it as a JWKS file is checked (public, usable keys only). */
async function fetchKeySet(url: URL, timeoutMs: number): Promise<JWTVerifyGetKey> {
  let parsed: unknown;
  try {
    parsed = await fetchJson(url, timeoutMs);
  } catch (error) {
    throw unusable(url, error instanceof Error ? error.message : String(error), error);
  }
  return keySetOf(parsed, (reason, cause) => unusable(url, reason, cause));
}

/**
 * The keys of an identity provider's JWKS URL, cached and fetched again as keys rotate, with `jose`
 * verifying against them. The first token `refreshMs` after the last fetch has them fetched again in the
 * background (the keys in use keep verifying meanwhile), and a token whose `kid` is not among them has
 * them fetched at once and waits for that fetch; fetches are at least `cooldownMs` apart whatever
 * prompts them, so tokens of made-up `kid`s cannot make the server hammer the provider. A fetch that
 * fails (provider unreachable, not 200, not a usable key set) leaves the keys in use, logs one warning
 * naming the URL and why, and is tried again after the cooldown; a key the provider dropped stops
 * verifying once a fetch succeeds without it.
 */
export class RemoteJwks {
  private fetchedAt: number;
  private attemptedAt: number;
  private fetching: Promise<void> | undefined;
  /** Whether the last fetch failed: a failure is logged once, and the recovery once. */
  private failing = false;

  private constructor(
    readonly url: URL,
    private keys: JWTVerifyGetKey,
    private readonly timing: RemoteJwksTiming,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {
    this.fetchedAt = now();
    this.attemptedAt = this.fetchedAt;
  }

  /** Fetches the keys at `url`; a failure is thrown, as at start-up (`SLUICE_PLUGIN_LOAD_FAILED` naming the URL). */
  static async open(url: URL, timing: RemoteJwksTiming, logger: Logger, now: () => number = Date.now): Promise<RemoteJwks> {
    return new RemoteJwks(url, await fetchKeySet(url, timing.timeoutMs), timing, logger, now);
  }

  /** The key resolver `jwtVerify` takes: the token's key by its `kid` and `alg` among the keys in use. */
  readonly getKey: JWTVerifyGetKey = async (header, token) => {
    if (this.timing.refreshMs > 0 && this.now() - this.fetchedAt >= this.timing.refreshMs && this.mayFetch()) void this.fetch();
    try {
      return await this.keys(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey) || this.timing.refreshMs === 0) throw error;
      if (this.fetching === undefined && !this.mayFetch()) throw error;
      await this.fetch();
      return await this.keys(header, token);
    }
  };

  /** Resolves once the fetch under way, if any, has ended (for tests and for a graceful stop). */
  async settled(): Promise<void> {
    await this.fetching;
  }

  private mayFetch(): boolean {
    return this.now() - this.attemptedAt >= this.timing.cooldownMs;
  }

  /** One fetch, shared by the tokens that ask for it meanwhile; never rejects. */
  private fetch(): Promise<void> {
    this.fetching ??= this.refetch().finally(() => {
      this.fetching = undefined;
    });
    return this.fetching;
  }

  private async refetch(): Promise<void> {
    this.attemptedAt = this.now();
    try {
      this.keys = await fetchKeySet(this.url, this.timing.timeoutMs);
    } catch (error) {
      if (!this.failing) {
        const problem = error instanceof Error ? error.message : String(error);
        this.logger.warn(`${problem}; the keys fetched before stay in use, and the fetch is tried again in ${this.timing.cooldownMs / 1000} s`, { jwksUrl: this.url.href });
      }
      this.failing = true;
      return;
    }
    this.fetchedAt = this.now();
    if (this.failing) this.logger.info('jwt-auth keys fetched again after failures', { jwksUrl: this.url.href });
    this.failing = false;
  }
}

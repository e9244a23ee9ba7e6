import { randomBytes } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SluiceError, isSluiceError } from '../../sdk/errors/index.js';
import { errorMessage } from '../../sdk/files/error-facts.js';
import { checkRemoteUrl, checkResolvedAddress } from './remote-url-policy.js';

/** Redirects followed before a download gives up. */
export const MAX_DOWNLOAD_REDIRECTS = 3;

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Resolves a host name to every address it has. */
export type HostLookup = (hostname: string) => Promise<readonly LookupAddress[]>;

/** Limits and policy of one download. */
export interface DownloadOptions {
  /** Largest body accepted, in bytes. */
  readonly maxBytes: number;
  /** Deadline for the whole download, redirects included. */
  readonly timeoutMs: number;
  /** Regular expression sources; the URL and every redirect target must fully match one. */
  readonly allowedPatterns: readonly (string | RegExp)[];
  /** Host name resolution; `dns.lookup` with every address unless replaced (tests). */
  readonly lookup?: HostLookup;
  /** Headers sent with every request besides `accept` (the registration's W3C `traceparent`, `tracestate`, `baggage`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** What a finished download produced. */
export interface DownloadResult {
  /** The URL the body finally came from, after redirects. */
  readonly url: string;
  readonly bytes: number;
}

class DownloadFailure extends Error {}

function failed(url: string, reason: string, cause?: unknown): SluiceError {
  return new SluiceError(
    'SLUICE_MANAGEMENT_DOWNLOAD_FAILED',
    `downloading ${url} failed: ${reason}; check the URL and that the server can reach it, then try again`,
    { url, reason },
    { cause },
  );
}

const defaultLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true });

/** Resolves the host once and checks every address, so that a name with one bad record is refused. */
async function resolveChecked(url: URL, lookup: HostLookup): Promise<LookupAddress> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const family = isIP(host);
  const addresses = family !== 0 ? [{ address: host, family }] : await lookup(host);
  for (const { address } of addresses) checkResolvedAddress(address, url.href);
  const first = addresses[0];
  if (first === undefined) throw new DownloadFailure(`${host} has no addresses`);
  return first;
}

/** Makes the connection use the address that was checked, never a second DNS answer. */
function pinnedLookup(pinned: LookupAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all === true) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}

function get(url: URL, address: LookupAddress, signal: AbortSignal, extraHeaders: Readonly<Record<string, string>> = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers: Record<string, string> = { ...extraHeaders, accept: '*/*' };
    const options = { method: 'GET', signal, agent: false, lookup: pinnedLookup(address), headers };
    const request = send(url, options, resolve);
    request.on('error', reject);
    request.end();
  });
}

async function saveBody(response: IncomingMessage, destFile: string, maxBytes: number, signal: AbortSignal): Promise<number> {
  const declared = Number(response.headers['content-length'] ?? Number.NaN);
  if (declared > maxBytes) {
    response.resume();
    throw new DownloadFailure(`the server announces ${declared} bytes, more than the limit of ${maxBytes} bytes`);
  }
  const partFile = `${destFile}.${randomBytes(6).toString('hex')}.part`;
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      bytes += chunk.length;
      if (bytes > maxBytes) callback(new DownloadFailure(`the body is larger than the limit of ${maxBytes} bytes`));
      else callback(null, chunk);
    },
  });
  try {
    await pipeline(response, limit, createWriteStream(partFile, { flags: 'wx' }), { signal });
    await rename(partFile, destFile);
    return bytes;
  } catch (error) {
    await rm(partFile, { force: true });
    throw error;
  }
}

/**
 * Downloads an archive from an http(s) URL to `destFile`. The URL and every redirect target
 * (at most {@link MAX_DOWNLOAD_REDIRECTS}) must pass {@link checkRemoteUrl}; each host is resolved
 * first, every address it resolves to must pass {@link checkResolvedAddress}, and the connection
 * goes to the checked address. The body goes to a temporary file next to `destFile` and is
 * renamed into place only when complete. Throws `SLUICE_MANAGEMENT_URL_NOT_ALLOWED` for a refused
 * URL or address and `SLUICE_MANAGEMENT_DOWNLOAD_FAILED` for everything else.
 */
export async function downloadArchive(url: string, destFile: string, options: DownloadOptions): Promise<DownloadResult> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const lookup = options.lookup ?? defaultLookup;
  let current = checkRemoteUrl(url, options.allowedPatterns);
  try {
    for (let redirects = 0; ; redirects++) {
      const address = await resolveChecked(current, lookup);
      const response = await get(current, address, signal, options.headers);
      const status = response.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status)) {
        response.resume();
        const location = response.headers.location;
        if (location === undefined) throw new DownloadFailure(`the server answered ${status} without a Location header`);
        if (redirects === MAX_DOWNLOAD_REDIRECTS) throw new DownloadFailure(`more than ${MAX_DOWNLOAD_REDIRECTS} redirects`);
        current = checkRemoteUrl(new URL(location, current).href, options.allowedPatterns);
        continue;
      }
      if (status !== 200) {
        response.resume();
        throw new DownloadFailure(`the server answered ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}`);
      }
      const bytes = await saveBody(response, destFile, options.maxBytes, signal);
      return { url: current.href, bytes };
    }
  } catch (error) {
    if (isSluiceError(error)) throw error;
    if (signal.aborted) throw failed(url, `no complete answer within ${options.timeoutMs} ms`, error);
    if (error instanceof DownloadFailure) throw failed(url, error.message, error);
    throw failed(url, errorMessage(error), error);
  }
}

import { BlockList, isIP } from 'node:net';
import { SluiceError } from '../../sdk/errors/index.js';
import { objectStoreUrlNotAllowed, parseObjectStoreUrl, type ObjectStoreLocation } from '../sources/object-store-url.js';

/** Host names that cloud providers answer with instance metadata (credentials, tokens). */
const METADATA_HOST_NAMES: ReadonlySet<string> = new Set(['metadata', 'metadata.google.internal']);

const FORBIDDEN_ADDRESSES = new BlockList();
FORBIDDEN_ADDRESSES.addSubnet('169.254.0.0', 16, 'ipv4'); // IPv4 link-local, incl. 169.254.169.254
FORBIDDEN_ADDRESSES.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud metadata
FORBIDDEN_ADDRESSES.addSubnet('fe80::', 10, 'ipv6'); // IPv6 link-local
FORBIDDEN_ADDRESSES.addAddress('fd00:ec2::254', 'ipv6'); // AWS metadata over IPv6
// IPv4 link-local written as IPv4-compatible or NAT64 IPv6 (IPv4-mapped ones the list handles itself).
FORBIDDEN_ADDRESSES.addSubnet('::a9fe:0', 112, 'ipv6');
FORBIDDEN_ADDRESSES.addSubnet('64:ff9b::a9fe:0', 112, 'ipv6');

const ADVICE =
  'only http(s) URLs that match the allowed URL patterns and do not point at link-local or cloud metadata addresses are accepted';

function notAllowed(url: string, reason: string): SluiceError {
  return new SluiceError('SLUICE_MANAGEMENT_URL_NOT_ALLOWED', `url ${JSON.stringify(url)} ${reason}; ${ADVICE}`, {
    url,
    reason,
  });
}

/** True for link-local and cloud metadata addresses, in any IPv4 or IPv6 spelling Node accepts. */
export function isForbiddenAddress(ip: string): boolean {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const family = isIP(bare);
  if (family === 0) return false;
  return FORBIDDEN_ADDRESSES.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Checks an address a host name resolved to, right before connecting to it. Throws
 * `SLUICE_MANAGEMENT_URL_NOT_ALLOWED` for link-local and cloud metadata addresses, and for
 * anything that is not an IP address.
 */
export function checkResolvedAddress(ip: string, host = ip): void {
  if (isIP(ip) === 0) throw notAllowed(host, `resolved to ${JSON.stringify(ip)}, which is not an IP address`);
  if (isForbiddenAddress(ip)) {
    throw notAllowed(host, `resolves to ${ip}, a link-local or cloud metadata address, which is never downloaded from`);
  }
}

function decodeRepeatedly(value: string): string {
  let current = value;
  for (let round = 0; round < 4; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      // Undecodable sequences are left as they are; what did decode is still inspected.
      next = current.replace(/%2e/gi, '.').replace(/%2f/gi, '/').replace(/%5c/gi, '\\');
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

/** Compiles configured pattern sources so that each must match the whole URL. */
function fullMatch(pattern: string | RegExp): RegExp {
  const source = typeof pattern === 'string' ? pattern : pattern.source;
  const flags = typeof pattern === 'string' ? '' : pattern.flags.replace(/[gy]/g, '');
  return new RegExp(`^(?:${source})$`, flags);
}

/**
 * Decides whether an http(s) URL may be downloaded, without any network access. Allowed only
 * when the normalised URL fully matches one of `allowedPatterns` (regular expression sources)
 * and none of these holds: another scheme, credentials in the URL, a `..` path segment (also
 * percent-encoded), a backslash or control character, a link-local or cloud metadata host.
 * Returns the parsed URL; throws `SLUICE_MANAGEMENT_URL_NOT_ALLOWED` otherwise.
 */
export function checkRemoteUrl(url: string, allowedPatterns: readonly (string | RegExp)[]): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw notAllowed(url, 'is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw notAllowed(url, `uses the scheme ${parsed.protocol} instead of http: or https:`);
  }
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f\s\\]/.test(url)) throw notAllowed(url, 'contains a backslash, a space or a control character');
  if (parsed.username !== '' || parsed.password !== '') {
    throw notAllowed(url, 'carries credentials; credentials in URLs are never accepted');
  }
  if (/(^|[/\\])\.\.([/\\?#]|$)/.test(decodeRepeatedly(url))) throw notAllowed(url, "contains a '..' path segment");

  const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  if (METADATA_HOST_NAMES.has(host)) throw notAllowed(url, `names the cloud metadata host ${host}`);
  if (isForbiddenAddress(host)) throw notAllowed(url, `points at ${host}, a link-local or cloud metadata address`);

  if (allowedPatterns.length === 0) {
    throw notAllowed(url, 'cannot be used because no URL patterns are allowed (allowedUrls is empty)');
  }
  if (!allowedPatterns.some((pattern) => fullMatch(pattern).test(parsed.href))) {
    throw notAllowed(url, 'matches none of the allowed URL patterns');
  }
  return parsed;
}

/**
 * Decides whether an object-store URL (`s3://bucket/prefix`, `azure://account/container/prefix`) may be
 * fetched, without any network access: it must parse (see {@link parseObjectStoreUrl}) and fully match one
 * of `allowedPatterns`, the same list http(s) URLs are checked against, so a pattern such as
 * `s3://models/team-a/.*` allows one bucket and prefix. Returns the parsed location; throws
 * `SLUICE_MANAGEMENT_URL_NOT_ALLOWED` otherwise.
 */
export function checkObjectStoreUrl(url: string, allowedPatterns: readonly (string | RegExp)[]): ObjectStoreLocation {
  const location = parseObjectStoreUrl(url);
  if (allowedPatterns.length === 0) {
    throw objectStoreUrlNotAllowed(url, 'cannot be used because no URL patterns are allowed (allowedUrls is empty)');
  }
  if (!allowedPatterns.some((pattern) => fullMatch(pattern).test(url))) throw objectStoreUrlNotAllowed(url, 'matches none of the allowed URL patterns');
  return location;
}
